import { integrations } from '@firebreak/db';
import { AppError, type IntegrationType } from '@firebreak/schema';
import type { IntakeSource } from '../alerts/intake-source';
import type { ServiceContext } from '../context';

/** The integration a key names, as keyed intake needs it. */
export interface KeyedIntegration {
  id: string;
  type: IntegrationType;
  /** Where its alerts are recorded: scoped by the integration's id, with its labels and policy. */
  source: IntakeSource;
}

// What keys look like (keys.ts makes 43 characters); anything else cannot name one, and is answered
// without a query.
const KEY_SHAPE = /^[A-Za-z0-9_-]{16,128}$/;

/**
 * One answer for an unknown, a deleted and a disabled key, word for word, so the answer does not tell
 * a prober which keys once existed. It never repeats the key: that would put it in logs and proxies.
 */
export function unknownIntakeKey(): AppError {
  return new AppError('not_found', 'No such intake key.');
}

/** The enabled integration a key names, in one query on the key's unique index; else 404 `not_found`. */
export async function findKeyedIntegration(ctx: ServiceContext, key: string): Promise<KeyedIntegration> {
  const row = KEY_SHAPE.test(key) ? await integrations.findIntegrationByKey(ctx.sql, key) : undefined;
  if (!row?.enabled) throw unknownIntakeKey();
  return {
    id: row.id,
    type: row.type,
    source: {
      scope: row.id,
      integrationId: row.id,
      type: row.type,
      labels: row.labels,
      escalationPolicyId: row.escalation_policy_id,
    },
  };
}
