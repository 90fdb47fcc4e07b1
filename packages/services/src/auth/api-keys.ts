import { apiKeys } from '@firebreak/db';
import { type ApiKey, AppError, type CreateApiKeyInput } from '@firebreak/schema';
import { type ChangeOrigin, recordAudit, systemOrigin } from '../audit';
import type { ServiceContext } from '../context';
import { presentApiKey } from './present';
import type { Principal } from './principal';
import { generateToken, hashToken } from './tokens';

/**
 * A key acts for the user who creates it (docs/api.md#authentication): it works while that user is
 * active, never above their current role, and is revoked when they are deleted. A key made with
 * another key acts for that key's creator.
 */
export async function createApiKey(
  ctx: ServiceContext,
  principal: Principal,
  input: CreateApiKeyInput,
  origin: ChangeOrigin = systemOrigin,
): Promise<ApiKey & { token: string }> {
  if (!principal.user) throw new AppError('forbidden', 'An API key must be created by a user.');
  const token = generateToken('api_key');
  const createdBy = principal.user.id;
  const row = await ctx.sql.begin(async (tx) => {
    const inserted = await apiKeys.insertApiKey(tx, {
      name: input.name,
      // Scripts usually act on incidents (the bulk-resolution script PATCHes them): member by default.
      role: input.role ?? 'member',
      tokenHash: hashToken(token),
      createdBy,
    });
    const created = await apiKeys.findApiKey(tx, inserted.id);
    await recordAudit(tx, ctx, {
      origin,
      entity: 'api_key',
      entityId: inserted.id,
      action: 'create',
      before: null,
      after: presentApiKey(created!),
    });
    return created;
  });
  ctx.logger.info({ api_key_id: row!.id, role: row!.role }, 'api key created');
  return { ...presentApiKey(row!), token };
}

export async function listApiKeys(ctx: ServiceContext): Promise<ApiKey[]> {
  return (await apiKeys.listActiveApiKeys(ctx.sql)).map(presentApiKey);
}

export async function revokeApiKey(
  ctx: ServiceContext,
  id: string,
  origin: ChangeOrigin = systemOrigin,
): Promise<void> {
  await ctx.sql.begin(async (tx) => {
    const at = ctx.now();
    if (!(await apiKeys.revokeApiKey(tx, id, at))) throw new AppError('not_found', 'No such API key.');
    const key = (await apiKeys.findApiKey(tx, id))!;
    await recordAudit(tx, ctx, {
      origin,
      entity: 'api_key',
      entityId: id,
      action: 'revoke',
      before: presentApiKey(key),
      after: { ...presentApiKey(key), revoked_at: at.toISOString() },
    });
  });
  ctx.logger.info({ api_key_id: id }, 'api key revoked');
}
