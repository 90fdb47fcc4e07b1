import { apiKeys, sessions } from '@firebreak/db';
import type { ServiceContext } from '../context';
import type { Principal } from './principal';
import { hashToken, tokenKind } from './tokens';

/** Resolves a bearer token or session cookie value to a principal; undefined when it is not valid. */
export async function authenticate(ctx: ServiceContext, token: string): Promise<Principal | undefined> {
  const kind = tokenKind(token);
  if (kind === 'session') {
    const user = await sessions.findSessionUser(ctx.sql, hashToken(token), ctx.now());
    if (!user) return undefined;
    return { kind, role: user.role, user: { id: user.id, name: user.name, email: user.email } };
  }
  if (kind === 'api_key') {
    const key = await apiKeys.useApiKey(ctx.sql, hashToken(token), ctx.now());
    if (!key) return undefined;
    return {
      kind,
      role: key.role,
      user:
        key.created_by && key.creator_name !== null
          ? { id: key.created_by, name: key.creator_name, email: key.creator_email ?? '' }
          : null,
      apiKeyId: key.id,
      apiKeyName: key.name,
    };
  }
  return undefined;
}
