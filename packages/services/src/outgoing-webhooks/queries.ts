import { outgoingWebhooks } from '@firebreak/db';
import { AppError, type OutgoingWebhook, type WebhookDelivery } from '@firebreak/schema';
import type { ServiceContext } from '../context';
import { presentDelivery, presentWebhook } from './present';

export const webhookNotFound = (id: string) => new AppError('not_found', `No outgoing webhook ${id}.`);

/** Oldest first. */
export async function listOutgoingWebhooks(ctx: ServiceContext): Promise<OutgoingWebhook[]> {
  return (await outgoingWebhooks.listWebhooks(ctx.sql)).map(presentWebhook);
}

/** The delivery log of one webhook, newest first. */
export async function listWebhookDeliveries(
  ctx: ServiceContext,
  webhookId: string,
  limit: number,
): Promise<WebhookDelivery[]> {
  if (!(await outgoingWebhooks.findWebhook(ctx.sql, webhookId))) throw webhookNotFound(webhookId);
  return (await outgoingWebhooks.listDeliveries(ctx.sql, webhookId, limit)).map(presentDelivery);
}
