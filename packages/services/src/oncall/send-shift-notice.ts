import { type Queryable, shiftNotices } from '@firebreak/db';
import { continuousSpans, SHIFT_NOTICE_END_SEARCH_MS, shiftLasts } from '@firebreak/domain';
import type { ServiceContext } from '../context';
import { loadFinalShifts } from './final-shifts';

export interface ShiftNoticeMessage {
  /** The person's chat ids: the notice goes to the first chat platform that is on and knows them. */
  person: { slack_user_id: string | null; teams_user_id: string | null };
  scheduleName: string;
  /**
   * How long the shift runs, found when the message is sent: "until Mon 30 Mar, 09:00 CEST" (the
   * schedule's zone), or "for at least 30 days" when it runs past the search.
   */
  lasts: string;
}

/** What the sender reports: sent, or refused by the chat service for good (its error code). */
export type ShiftNoticeOutcome = { sent: true } | { sent: false; code: string };

/**
 * The `chat.shift_notice` job's work (docs/schedules.md#shift-notices): under the notice's row lock, so a
 * second job for the same notice waits and then finds it done, sends the direct message once and records
 * the outcome. A shift already over, notices turned off, or no chat id: nothing is sent, and why is kept.
 * Who is on call is asked again under the lock, so a change made after the notice was queued (an
 * override that replaced this person) cancels it instead of telling the wrong person.
 * `send` throws to have the job retried (chat unreachable, rate limited); the lock is then released and
 * the notice stays queued.
 */
export async function sendShiftNotice(
  ctx: ServiceContext,
  noticeId: string,
  send: (message: ShiftNoticeMessage) => Promise<ShiftNoticeOutcome>,
): Promise<void> {
  await ctx.sql.begin(async (tx) => {
    const notice = await shiftNotices.lockNoticeToSend(tx, noticeId);
    if (notice?.state !== 'queued') return;
    const now = ctx.now();
    const skip = async (reason: string) => {
      await shiftNotices.setNoticeState(tx, noticeId, { state: 'skipped', at: now, reason });
      ctx.logger.info({ shift_notice_id: noticeId, reason }, 'shift notice skipped');
    };
    if (notice.ends_at <= now) return skip('shift_over');
    if (!notice.shift_notices || !notice.active) return skip('notices_off');
    if (!notice.slack_user_id && !notice.teams_user_id) return skip('no_chat_id');
    const searchedUntil = new Date(now.getTime() + SHIFT_NOTICE_END_SEARCH_MS);
    const span = await runningSpan(tx, notice.schedule_id, now, searchedUntil);
    if (span?.userId !== notice.user_id) {
      await shiftNotices.setNoticeState(tx, noticeId, { state: 'cancelled', at: now, reason: 'not_on_call' });
      ctx.logger.info({ shift_notice_id: noticeId }, 'shift notice cancelled: no longer on call');
      return;
    }
    const outcome = await send({
      person: { slack_user_id: notice.slack_user_id, teams_user_id: notice.teams_user_id },
      scheduleName: notice.schedule_name,
      lasts: shiftLasts(now, span.end, searchedUntil, notice.timezone),
    });
    await shiftNotices.setNoticeState(tx, noticeId, {
      state: outcome.sent ? 'sent' : 'failed',
      at: ctx.now(),
      reason: outcome.sent ? null : outcome.code,
    });
    if (outcome.sent)
      ctx.logger.info({ shift_notice_id: noticeId, user_id: notice.user_id }, 'shift notice sent');
  });
}

/**
 * Who is on call in the schedule at `now` and until when: their continuous time on call, overrides
 * applied, searched up to `until` (an end at `until` means "at least until then").
 */
async function runningSpan(
  sql: Queryable,
  scheduleId: string,
  now: Date,
  until: Date,
): Promise<{ userId: string | null; end: Date } | undefined> {
  const [found] = await loadFinalShifts(sql, now, until, [scheduleId], { skipTooMany: true });
  const first = found && continuousSpans(found.shifts)[0];
  if (first?.start.getTime() !== now.getTime()) return undefined;
  return { userId: first.person.user_id, end: first.end };
}
