import { outgoingWebhooks } from '@firebreak/db';
import type { OutgoingWebhook, UpdateOutgoingWebhookInput } from '@firebreak/schema';
import { type ChangeOrigin, recordAudit, systemOrigin } from '../audit';
import type { ServiceContext } from '../context';
import { presentWebhook, webhookAuditView } from './present';
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
  origin: ChangeOrigin = systemOrigin,
): Promise<OutgoingWebhook> {
  const row = await ctx.sql.begin(async (tx) => {
    const before = await outgoingWebhooks.findWebhook(tx, id);
    const after = await outgoingWebhooks.updateWebhook(tx, id, input, ctx.now());
    if (!before || !after) return undefined;
    await recordAudit(tx, ctx, {
      origin,
      entity: 'outgoing_webhook',
      entityId: id,
      action: 'update',
      before: webhookAuditView(before),
      after: webhookAuditView(after),
    });
    return after;
  });
  if (!row) throw webhookNotFound(id);
  // Which fields changed, never their values (the secret; a URL may carry a token of the receiver's).
  ctx.logger.info({ outgoing_webhook_id: id, fields: Object.keys(input) }, 'outgoing webhook updated');
  return presentWebhook(row);
}
