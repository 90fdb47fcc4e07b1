import { outgoingWebhooks } from '@firebreak/db';
import { type ChangeOrigin, recordAudit, systemOrigin } from '../audit';
import type { ServiceContext } from '../context';
import { webhookAuditView } from './present';
import { webhookNotFound } from './queries';

/** `DELETE /api/v1/outgoing-webhooks/{id}`: the webhook, its delivery log and its pending deliveries. */
export async function deleteOutgoingWebhook(
  ctx: ServiceContext,
  id: string,
  origin: ChangeOrigin = systemOrigin,
): Promise<void> {
  const deleted = await ctx.sql.begin(async (tx) => {
    const before = await outgoingWebhooks.findWebhook(tx, id);
    if (!before || !(await outgoingWebhooks.deleteWebhook(tx, id))) return false;
    await recordAudit(tx, ctx, {
      origin,
      entity: 'outgoing_webhook',
      entityId: id,
      action: 'delete',
      before: webhookAuditView(before),
      after: null,
    });
    return true;
  });
  if (!deleted) throw webhookNotFound(id);
  ctx.logger.info({ outgoing_webhook_id: id }, 'outgoing webhook deleted');
}
