import { outgoingWebhooks, type Queryable } from '@firebreak/db';
import type { ServiceContext } from '../context';
import {
  type DeliveryVerdict,
  isDeliveryExpired,
  judgeDeliveryAttempt,
  type WebhookAttemptResult,
} from './retry-policy';

/** One POST to make: what the worker signs and sends. */
export interface WebhookRequest {
  deliveryId: string;
  event: string;
  url: string;
  /** The exact JSON body, as recorded with the event. */
  body: string;
  /** Signs the request when set. */
  secret: string | null;
  /** Unix seconds of this attempt (the timestamp header, and part of what is signed). */
  timestamp: number;
}

/** The transport: the worker's HTTP client. Never throws for the target's failures; it reports them. */
export type SendWebhook = (request: WebhookRequest) => Promise<WebhookAttemptResult>;

/** One webhook's deliveries for one incident: they go out strictly in order. */
export interface WebhookLine {
  webhookId: string;
  incidentId: string;
}

export interface LineOutcome {
  /** The head waits for a retry: when, and which try (for a wake-up job's unique id). */
  retry: { deliveryId: string; attempts: number; at: Date } | null;
  /** The run stopped at its limit with more due: run the line again. */
  more: boolean;
}

/** Deliveries one run sends at most, so one busy line cannot keep a worker to itself. */
const MAX_PER_RUN = 25;

/**
 * Sends a line's due deliveries, oldest first, under the line's lock; undefined at once when another
 * worker holds it. The head alone is ever sent: while it waits for a retry the later ones wait behind
 * it, and each outcome is recorded before the next is sent, so a delivery the target accepted (2xx) is
 * never sent again. Called by the `webhook.deliver` job and by the reconciler, possibly at once.
 */
export async function deliverWebhookLine(
  ctx: ServiceContext,
  line: WebhookLine,
  send: SendWebhook,
): Promise<LineOutcome | undefined> {
  const locked = await outgoingWebhooks.withWebhookLineLock(
    ctx.sql,
    line.webhookId,
    line.incidentId,
    async (connection) => {
      for (let sent = 0; sent < MAX_PER_RUN; sent += 1) {
        const step = await deliverHead(ctx, connection, line, send);
        if (step !== 'next') return { retry: step === 'idle' ? null : step, more: false };
      }
      return { retry: null, more: true };
    },
  );
  return locked?.value;
}

/**
 * The head of the line, if it is due: expired (failed without a try), or sent and its outcome recorded.
 * `next` when the line may move on, `idle` when nothing is due, else the retry the head waits for.
 */
async function deliverHead(
  ctx: ServiceContext,
  connection: Queryable,
  line: WebhookLine,
  send: SendWebhook,
): Promise<'next' | 'idle' | NonNullable<LineOutcome['retry']>> {
  const head = await outgoingWebhooks.findLineHead(connection, line.webhookId, line.incidentId);
  const now = ctx.now();
  // A disabled webhook's pending deliveries wait for it to be enabled again.
  if (!head?.enabled) return 'idle';
  if (isDeliveryExpired(head.created_at, now)) {
    const error = 'gave up: not delivered within 24 hours (held back behind an earlier delivery)';
    await outgoingWebhooks.recordAttempt(connection, head.id, {
      attempted: false,
      status: 'failed',
      statusCode: null,
      error,
      durationMs: null,
      nextAttemptAt: null,
      at: now,
    });
    logOutcome(ctx, line, head, { status: 'failed', error, nextAttemptAt: null }, undefined);
    return 'next';
  }
  if (head.next_attempt_at > now) {
    return { deliveryId: head.id, attempts: head.attempts, at: head.next_attempt_at };
  }
  const result = await send({
    deliveryId: head.id,
    event: head.event,
    url: head.url,
    body: head.body,
    secret: head.secret,
    timestamp: Math.floor(now.getTime() / 1000),
  });
  const attempts = head.attempts + 1;
  const verdict = judgeDeliveryAttempt(result, attempts, ctx.now(), head.created_at);
  await outgoingWebhooks.recordAttempt(connection, head.id, {
    attempted: true,
    status: verdict.status,
    statusCode: result.kind === 'answered' ? result.statusCode : null,
    error: verdict.error,
    durationMs: Math.round(result.durationMs),
    nextAttemptAt: verdict.nextAttemptAt,
    at: ctx.now(),
  });
  logOutcome(ctx, line, { ...head, attempts }, verdict, result);
  if (verdict.status === 'pending' && verdict.nextAttemptAt) {
    return { deliveryId: head.id, attempts, at: verdict.nextAttemptAt };
  }
  return 'next';
}

/** One line per attempt that did not succeed; the URL is never logged (it may carry a token). */
function logOutcome(
  ctx: ServiceContext,
  line: WebhookLine,
  head: { id: string; event: string; attempts: number },
  verdict: DeliveryVerdict,
  result: WebhookAttemptResult | undefined,
): void {
  const fields = {
    outgoing_webhook_id: line.webhookId,
    incident_id: line.incidentId,
    delivery_id: head.id,
    event: head.event,
    attempts: head.attempts,
    status_code: result?.kind === 'answered' ? result.statusCode : undefined,
    last_error: verdict.error ?? undefined,
  };
  if (verdict.status === 'delivered') ctx.logger.debug(fields, 'outgoing webhook delivered');
  else if (verdict.status === 'failed') ctx.logger.warn(fields, 'outgoing webhook delivery failed');
  else ctx.logger.info({ ...fields, next_attempt_at: verdict.nextAttemptAt }, 'outgoing webhook will retry');
}

/** The reconciler's question: which lines have a delivery due now (however their wake-up job fared)? */
export async function listDueWebhookLines(ctx: ServiceContext, limit = 100): Promise<WebhookLine[]> {
  const rows = await outgoingWebhooks.listDueLines(ctx.sql, ctx.now(), limit);
  return rows.map((row) => ({ webhookId: row.webhook_id, incidentId: row.incident_id }));
}
