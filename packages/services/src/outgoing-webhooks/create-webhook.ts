import { outgoingWebhooks } from '@firebreak/db';
import type { CreateOutgoingWebhookInput, OutgoingWebhook } from '@firebreak/schema';
import { type ChangeOrigin, recordAudit, systemOrigin } from '../audit';
import type { ServiceContext } from '../context';
import { presentWebhook, webhookAuditView } from './present';

/** `POST /api/v1/outgoing-webhooks`. It receives the events that happen from now on. */
export async function createOutgoingWebhook(
  ctx: ServiceContext,
  input: CreateOutgoingWebhookInput,
  origin: ChangeOrigin = systemOrigin,
): Promise<OutgoingWebhook> {
  const row = await ctx.sql.begin(async (tx) => {
    const inserted = await outgoingWebhooks.insertWebhook(
      tx,
      {
        name: input.name,
        url: input.url,
        events: input.events,
        secret: input.secret ?? null,
        enabled: input.enabled,
      },
      ctx.now(),
    );
    await recordAudit(tx, ctx, {
      origin,
      entity: 'outgoing_webhook',
      entityId: inserted.id,
      action: 'create',
      before: null,
      after: webhookAuditView(inserted),
    });
    return inserted;
  });
  // The id, never the URL: a URL may carry a token of the receiver's.
  ctx.logger.info({ outgoing_webhook_id: row.id, events: row.events }, 'outgoing webhook created');
  return presentWebhook(row);
}
