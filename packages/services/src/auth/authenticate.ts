import { apiKeys, sessions } from '@firebreak/db';
import { roleAllows } from '@firebreak/domain';
import type { ServiceContext } from '../context';
import type { Principal } from './principal';
import { hashToken, tokenKind } from './tokens';

/**
 * Resolves a bearer token or session cookie value to a principal; undefined when it is not valid.
 * `background`: the request is the UI's own polling, not a person's action, so it does not count as use
 * of the session for its idle timeout (docs/api.md#authentication).
 */
export async function authenticate(
  ctx: ServiceContext,
  token: string,
  background = false,
): Promise<Principal | undefined> {
  const kind = tokenKind(token);
  if (kind === 'session') {
    const user = await sessions.findSessionUser(
      ctx.sql,
      hashToken(token),
      ctx.now(),
      ctx.sessionIdleTimeoutMs,
      !background,
    );
    if (!user) return undefined;
    return { kind, role: user.role, user: { id: user.id, name: user.name, email: user.email } };
  }
  if (kind === 'api_key') {
    // Only a key whose creator exists and is active is found at all.
    const key = await apiKeys.useApiKey(ctx.sql, hashToken(token), ctx.now());
    if (!key) return undefined;
    return {
      kind,
      // A key acts for its creator, so it never does more than the creator may do now: a demoted
      // admin's admin key acts as a member from the demotion on (and as admin again if promoted back).
      role: roleAllows(key.role, key.creator_role) ? key.creator_role : key.role,
      user: { id: key.created_by, name: key.creator_name, email: key.creator_email },
      apiKeyId: key.id,
      apiKeyName: key.name,
    };
  }
  return undefined;
}
