import { apiKeys } from '@firebreak/db';
import { type ApiKey, AppError, type CreateApiKeyInput } from '@firebreak/schema';
import type { ServiceContext } from '../context';
import { presentApiKey } from './present';
import type { Principal } from './principal';
import { generateToken, hashToken } from './tokens';

export async function createApiKey(
  ctx: ServiceContext,
  principal: Principal,
  input: CreateApiKeyInput,
): Promise<ApiKey & { token: string }> {
  const token = generateToken('api_key');
  const row = await apiKeys.insertApiKey(ctx.sql, {
    name: input.name,
    // Scripts usually act on incidents (the bulk-resolution script PATCHes them): member by default.
    role: input.role ?? 'member',
    tokenHash: hashToken(token),
    createdBy: principal.user?.id ?? null,
  });
  ctx.logger.info({ api_key_id: row.id, role: row.role }, 'api key created');
  return { ...presentApiKey(row), token };
}

export async function listApiKeys(ctx: ServiceContext): Promise<ApiKey[]> {
  return (await apiKeys.listActiveApiKeys(ctx.sql)).map(presentApiKey);
}

export async function revokeApiKey(ctx: ServiceContext, id: string): Promise<void> {
  const revoked = await apiKeys.revokeApiKey(ctx.sql, id, ctx.now());
  if (!revoked) throw new AppError('not_found', 'No such API key.');
  ctx.logger.info({ api_key_id: id }, 'api key revoked');
}
