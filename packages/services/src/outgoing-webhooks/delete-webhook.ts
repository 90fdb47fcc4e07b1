import { outgoingWebhooks } from '@firebreak/db';
import type { ServiceContext } from '../context';
import { webhookNotFound } from './queries';

/** `DELETE /api/v1/outgoing-webhooks/{id}`: the webhook, its delivery log and its pending deliveries. */
export async function deleteOutgoingWebhook(ctx: ServiceContext, id: string): Promise<void> {
  if (!(await outgoingWebhooks.deleteWebhook(ctx.sql, id))) throw webhookNotFound(id);
  ctx.logger.info({ outgoing_webhook_id: id }, 'outgoing webhook deleted');
}
