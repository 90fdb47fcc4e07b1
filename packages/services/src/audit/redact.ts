/** What stands in the audit log for a secret's value. */
export const REDACTED = '[redacted]';

// Field names that hold a credential: signing secrets, bearer and API tokens, intake and API keys,
// password and token hashes. Matched by name, so a new secret field is covered by naming it like one.
const secretName = /(secret|token|password|hash)s?$|(^|_)keys?$/i;

/**
 * A copy of `value` with every secret field's value replaced by "[redacted]", at any depth. A null stays
 * null and a boolean stays (`has_secret: true` says a secret is set, not what it is), so the log still
 * shows that a secret was set, changed or removed.
 */
export function redactSecrets(value: unknown): unknown {
  if (Array.isArray(value)) return value.map(redactSecrets);
  if (value === null || typeof value !== 'object') return value;
  if (value instanceof Date) return value.toISOString();
  return Object.fromEntries(
    Object.entries(value as Record<string, unknown>)
      .filter(([, field]) => field !== undefined)
      .map(([name, field]) => [
        name,
        secretName.test(name) && field !== null && typeof field !== 'boolean'
          ? REDACTED
          : redactSecrets(field),
      ]),
  );
}
