import { incidents, outbox, outgoingWebhooks, type Queryable } from '@firebreak/db';
import type { OutgoingWebhookEvent } from '@firebreak/schema';
import { presentIncident } from '../incidents/present';

/**
 * Records `event` for every enabled webhook that receives it, in the caller's transaction (the one of
 * the incident change): one delivery row per webhook, carrying the body with the incident as it is at
 * this point of the transaction, and an outbox row that wakes a worker once it commits. So an event
 * exists if and only if the change committed, and shows the incident as the change left it.
 *
 * The one way use cases emit webhook events (docs/integrations/outgoing-webhooks.md#events).
 */
export async function queueWebhookEvent(
  tx: Queryable,
  event: OutgoingWebhookEvent,
  incidentId: string,
  occurredAt: Date,
): Promise<void> {
  const webhookIds = await outgoingWebhooks.lockSubscribedWebhooks(tx, event);
  await queueWebhookEventFor(tx, webhookIds, event, incidentId, occurredAt);
}

/**
 * `queueWebhookEvent` for a caller that already locked the subscribed webhooks
 * (`outgoingWebhooks.lockSubscribedWebhooks`), e.g. alongside its own writes in one round trip.
 */
export async function queueWebhookEventFor(
  tx: Queryable,
  webhookIds: readonly string[],
  event: OutgoingWebhookEvent,
  incidentId: string,
  occurredAt: Date,
): Promise<void> {
  if (webhookIds.length === 0) return;
  const view = await incidents.findIncidentView(tx, { id: incidentId });
  if (!view) throw new Error(`incident ${incidentId} not found for webhook event ${event}`);
  // Serialised once: every attempt sends these exact bytes, which the signature covers.
  const body = JSON.stringify({
    event,
    occurred_at: occurredAt.toISOString(),
    incident: presentIncident(view),
  });
  await outgoingWebhooks.insertDeliveries(
    tx,
    webhookIds.map((webhookId) => ({ webhookId, incidentId, event, body, at: occurredAt })),
  );
  await outbox.insertOutboxRows(
    tx,
    webhookIds.map((webhookId) => ({
      name: 'webhook.deliver' as const,
      payload: { webhook_id: webhookId, incident_id: incidentId },
      orderingKey: incidentId,
    })),
  );
}
