import { outgoingWebhooks } from '@firebreak/db';
import type { CreateOutgoingWebhookInput, OutgoingWebhook } from '@firebreak/schema';
import type { ServiceContext } from '../context';
import { presentWebhook } from './present';

/** `POST /api/v1/outgoing-webhooks`. It receives the events that happen from now on. */
export async function createOutgoingWebhook(
  ctx: ServiceContext,
  input: CreateOutgoingWebhookInput,
): Promise<OutgoingWebhook> {
  const row = await outgoingWebhooks.insertWebhook(
    ctx.sql,
    {
      name: input.name,
      url: input.url,
      events: input.events,
      secret: input.secret ?? null,
      enabled: input.enabled,
    },
    ctx.now(),
  );
  // The id, never the URL: a URL may carry a token of the receiver's.
  ctx.logger.info({ outgoing_webhook_id: row.id, events: row.events }, 'outgoing webhook created');
  return presentWebhook(row);
}
