import { outbox, shiftNotices } from '@firebreak/db';
import type { ServiceContext } from '../context';
import { finalOnCallPerson } from './final-shifts';
import { planShiftNotices } from './plan-shift-notices';

const BATCH = 100;
/**
 * A notice queued this long ago and still `queued` lost its chat job (a Redis restarted empty): it is
 * queued again while the shift lasts. (A job that gives up records the notice `failed`, which is not
 * queued again.) Longer than the chat job's own retries (about 19 minutes), so a job still riding out a
 * chat outage is not doubled for nothing; a doubled job sends nothing twice anyway (sendShiftNotice).
 */
const REQUEUE_AFTER_MS = 20 * 60_000;

/**
 * One pass of the shift-notice timer (docs/schedules.md#shift-notices): claims the due notices `for
 * update skip locked` and, in the same transaction, queues their chat job through the outbox, so each
 * is queued once however many workers run the pass. A notice whose shift has ended (the workers were
 * down) is skipped; one whose person is no longer on call (a change the planning has not seen yet) is
 * cancelled. Answers how many notices it queued.
 */
export async function queueDueShiftNotices(ctx: ServiceContext): Promise<number> {
  const now = ctx.now();
  return ctx.sql.begin(async (tx) => {
    let queued = 0;
    for (const notice of await shiftNotices.claimDueNotices(tx, now, BATCH)) {
      if (notice.ends_at <= now) {
        await shiftNotices.setNoticeState(tx, notice.id, { state: 'skipped', at: now, reason: 'shift_over' });
        ctx.logger.info({ shift_notice_id: notice.id }, 'shift notice skipped: the shift is over');
        continue;
      }
      const onCall = await finalOnCallPerson(tx, notice.schedule_id, now);
      if (onCall?.person?.user_id !== notice.user_id) {
        await shiftNotices.setNoticeState(tx, notice.id, {
          state: 'cancelled',
          at: now,
          reason: 'not_on_call',
        });
        continue;
      }
      await queueNotice(tx, notice.id, now);
      queued += 1;
    }
    const lostBefore = new Date(now.getTime() - REQUEUE_AFTER_MS);
    for (const notice of await shiftNotices.claimUnsentNotices(tx, lostBefore, now, BATCH)) {
      await queueNotice(tx, notice.id, now);
      queued += 1;
    }
    return queued;
  });
}

async function queueNotice(tx: Parameters<typeof outbox.insertOutboxRows>[0], id: string, now: Date) {
  await outbox.insertOutboxRows(tx, [{ name: 'chat.shift_notice', payload: { notice_id: id } }]);
  await shiftNotices.setNoticeState(tx, id, { state: 'queued', at: now });
}

const PRUNE_AFTER_MS = 30 * 86_400_000;

/**
 * The planning pass: every schedule's notices re-planned, and the rows of long-ended shifts pruned. One
 * worker at a time. The schedules are locked against changes meanwhile, for as long as computing their
 * next two weeks of shifts takes (milliseconds per schedule); the pass never waits on a notice row, so a
 * chat job that holds one while it sends cannot make schedule edits wait. Each schedule is planned on
 * its own savepoint: one that fails is logged (docs/runbooks/shift-notices.md) and the others are planned.
 */
export async function planAllShiftNotices(ctx: ServiceContext): Promise<number> {
  const now = ctx.now();
  return ctx.sql.begin(async (tx) => {
    if (!(await shiftNotices.tryLockPlanning(tx))) return 0;
    const ids = await shiftNotices.lockSchedulesForPlanning(tx);
    await shiftNotices.pruneNotices(tx, new Date(now.getTime() - PRUNE_AFTER_MS));
    let planned = 0;
    const failed: string[] = [];
    let firstError: unknown;
    for (const id of ids) {
      try {
        planned += await tx.savepoint((sp) => planShiftNotices(sp, now, [id]));
      } catch (error) {
        failed.push(id);
        firstError ??= error;
      }
    }
    if (failed.length > 0) {
      ctx.logger.warn(
        { schedule_ids: failed, err: firstError },
        'shift notice planning failed for some schedules',
      );
    }
    return planned;
  });
}
