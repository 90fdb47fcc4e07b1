import { type ChangeOrigin, originFromPrincipal } from '@firebreak/services';
import type { Context } from 'hono';
import { principalOf } from './auth';
import type { AppEnv } from './env';

/**
 * Who asks for a change and in which request, for the audit log (docs/api.md#audit-log). Only on a
 * route guarded by `requireRole`, which has resolved the principal.
 */
export function changeOriginOf(c: Context<AppEnv>): ChangeOrigin {
  return originFromPrincipal(principalOf(c), c.get('requestId') ?? null);
}
