import { outgoingWebhooks } from '@firebreak/db';
import type { OutgoingWebhook, UpdateOutgoingWebhookInput } from '@firebreak/schema';
import type { ServiceContext } from '../context';
import { presentWebhook } from './present';
import { webhookNotFound } from './queries';

/**
 * `PATCH /api/v1/outgoing-webhooks/{id}`. A new URL or secret applies to the next attempt, pending
 * deliveries included. Disabling stops new deliveries, and holds back the pending ones until the
 * webhook is enabled again (within their 24 hours).
 */
export async function updateOutgoingWebhook(
  ctx: ServiceContext,
  id: string,
  input: UpdateOutgoingWebhookInput,
): Promise<OutgoingWebhook> {
  const row = await outgoingWebhooks.updateWebhook(ctx.sql, id, input, ctx.now());
  if (!row) throw webhookNotFound(id);
  // Which fields changed, never their values (the secret; a URL may carry a token of the receiver's).
  ctx.logger.info({ outgoing_webhook_id: id, fields: Object.keys(input) }, 'outgoing webhook updated');
  return presentWebhook(row);
}
