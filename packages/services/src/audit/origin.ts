import type { Principal } from '../auth/principal';

/** Who made a change, as the audit log names them. */
export type AuditActor =
  | { type: 'user'; id: string; name: string }
  | { type: 'api_key'; id: string; name: string }
  | { type: 'system'; name: string };

/**
 * Where a change came from: the actor and the request that carried it. Every configuration write takes
 * one, so its audit row names who asked; handlers build it with `changeOriginOf(c)` (@firebreak/http).
 */
export interface ChangeOrigin {
  actor: AuditActor;
  requestId: string | null;
}

/**
 * A change nobody asked for through the API: the importer CLI, a start-up step, a caller that has not
 * said who it acts for. The default of every configuration write, so that no write goes unrecorded.
 */
export const systemOrigin: ChangeOrigin = { actor: { type: 'system', name: 'system' }, requestId: null };

/** An API key is named as itself, not as its creator: the log must say which credential was used. */
export function originFromPrincipal(principal: Principal, requestId: string | null): ChangeOrigin {
  if (principal.kind === 'api_key' && principal.apiKeyId) {
    return {
      actor: { type: 'api_key', id: principal.apiKeyId, name: principal.apiKeyName ?? 'unnamed' },
      requestId,
    };
  }
  if (principal.user) {
    return { actor: { type: 'user', id: principal.user.id, name: principal.user.name }, requestId };
  }
  return { ...systemOrigin, requestId };
}
