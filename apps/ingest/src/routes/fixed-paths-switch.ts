import { AppError } from '@firebreak/schema';
import { fixedWebhooksEnabled, type ServiceContext } from '@firebreak/services';
import type { MiddlewareHandler } from 'hono';

/**
 * With `fixed_webhooks_enabled: false` (PATCH /api/v1/settings), the fixed `/api/v1/webhooks/*` paths
 * answer 404 and only keyed URLs take alerts (docs/integrations/keyed-intake.md#open-intake). The setting
 * is read through a cache of a few seconds, so this costs no query per alert.
 */
export function refuseWhileFixedPathsOff(ctx: Pick<ServiceContext, 'sql'>): MiddlewareHandler {
  return async (_c, next) => {
    if (!(await fixedWebhooksEnabled(ctx))) {
      throw new AppError(
        'not_found',
        'The fixed webhook paths are turned off (fixed_webhooks_enabled is false): send to the integration’s keyed URL.',
      );
    }
    await next();
  };
}
