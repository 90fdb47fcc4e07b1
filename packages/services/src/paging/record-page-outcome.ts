import { setTimeout as sleep } from 'node:timers/promises';
import { contactMethods, isDatabaseUnavailable, pageDeliveries } from '@firebreak/db';
import type { ServiceContext } from '../context';
import type { ClaimedPage } from './claim-page';
import { judgePageSend, type PageSendResult } from './delivery-policy';

/**
 * Records what a send came to (docs/paging.md#retries): `sent`, `failed` with the reason, or `pending`
 * again with the time of the next try (backoff, or the provider's Retry-After when longer). An address
 * the provider says is gone (an expired push subscription) is disabled, so no later page tries it.
 * Returns the retry time, for the wake-up job.
 */
export async function recordPageOutcome(
  ctx: ServiceContext,
  page: ClaimedPage,
  result: PageSendResult,
): Promise<Date | null> {
  const now = ctx.now();
  const verdict = judgePageSend(result, page.delivery.attempts, now);
  await withDatabaseRetries(ctx, page.delivery.id, () => recordVerdict(ctx, page, result, verdict, now));
  logOutcome(ctx, page, result, verdict);
  return verdict.nextAttemptAt;
}

/**
 * The send has happened: losing its record to a brief database outage would leave the row `sending`,
 * and 2 minutes later the page would be sent again (docs/paging.md#exactly-once). So the record is tried
 * a few more times in this process, over about 3 seconds, before the error is left to that recovery.
 * Only the database being unreachable is retried; any other error would fail again the same way.
 */
const RECORD_RETRY_DELAYS_MS = [250, 1000, 2000];

async function withDatabaseRetries(
  ctx: ServiceContext,
  deliveryId: string,
  record: () => Promise<void>,
): Promise<void> {
  for (let attempt = 0; ; attempt += 1) {
    try {
      return await record();
    } catch (error) {
      const delay = RECORD_RETRY_DELAYS_MS[attempt];
      if (delay === undefined || !isDatabaseUnavailable(error)) throw error;
      ctx.logger.info(
        { delivery_id: deliveryId, attempt: attempt + 1 },
        'page outcome not recorded; retrying',
      );
      await sleep(delay);
    }
  }
}

async function recordVerdict(
  ctx: ServiceContext,
  page: ClaimedPage,
  result: PageSendResult,
  verdict: ReturnType<typeof judgePageSend>,
  now: Date,
): Promise<void> {
  await ctx.sql.begin(async (tx) => {
    await pageDeliveries.recordSendOutcome(tx, page.delivery.id, {
      status: verdict.status,
      providerId: result.ok ? (result.providerId ?? null) : null,
      error: verdict.error,
      nextAttemptAt: verdict.nextAttemptAt,
      at: now,
    });
    if (!result.ok && result.gone) {
      await contactMethods.disableContactMethod(tx, page.contact.id, result.error, now);
    }
  });
}

function logOutcome(
  ctx: ServiceContext,
  page: ClaimedPage,
  result: PageSendResult,
  verdict: ReturnType<typeof judgePageSend>,
): void {
  const fields = {
    delivery_id: page.delivery.id,
    incident_id: page.incident.id,
    user_id: page.user.id,
    contact_method_id: page.contact.id,
    method: page.delivery.method,
    attempts: page.delivery.attempts,
  };
  if (verdict.status === 'sent')
    ctx.logger.info({ ...fields, provider_id: result.ok ? result.providerId : undefined }, 'page sent');
  else if (verdict.status === 'failed')
    ctx.logger.warn({ ...fields, error: verdict.error }, 'page delivery failed');
  else
    ctx.logger.info(
      { ...fields, error: verdict.error, next_attempt_at: verdict.nextAttemptAt },
      'page will retry',
    );
  if (!result.ok && result.gone) {
    ctx.logger.warn(
      { contact_method_id: page.contact.id, user_id: page.user.id, error: result.error },
      'contact method disabled',
    );
  }
}
