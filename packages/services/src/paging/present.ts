import type { contactMethods } from '@firebreak/db';
import type { ContactMethod } from '@firebreak/schema';

/**
 * A contact method as the API shows it. A push endpoint is a capability (whoever knows it, with the
 * keys, can notify that browser), so only its origin is shown, and never the keys.
 */
export function presentContactMethod(row: contactMethods.ContactMethodRow): ContactMethod {
  return {
    id: row.id,
    type: row.type,
    address: row.type === 'push' ? originOf(row.address) : row.address,
    label: row.label,
    verified: row.verified_at !== null && row.disabled_at === null,
    verified_at: row.verified_at?.toISOString() ?? null,
    disabled_reason: row.disabled_reason,
    created_at: row.created_at.toISOString(),
  };
}

function originOf(endpoint: string): string {
  try {
    return new URL(endpoint).origin;
  } catch {
    return 'push';
  }
}
