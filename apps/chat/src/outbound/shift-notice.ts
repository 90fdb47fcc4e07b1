import { DelayedError, type Job } from '@firebreak/queue';
import { type ShiftNoticeOutcome, sendShiftNotice } from '@firebreak/services';
import { failureLine, MethodPausedError } from './errors';
import { chatComponent, reportChatWorking } from './failures';
import { classifyCallError, type OutboundDeps, platformsOf } from './job';

/**
 * `chat.shift_notice` (docs/schedules.md#shift-notices): the direct message telling someone their shift
 * has started. The notice row is locked while it is sent and records the outcome, so a retried or
 * doubled job sends it once. Chat unreachable or rate limited: thrown, and BullMQ tries again with the
 * chat backoff. Refused (the user left the workspace, a revoked token): the failure log line, the code
 * kept on the notice, and no retry. A method paused by a rate limit: the notice stays queued and the
 * job comes back when the pause ends, without counting a try.
 */
export async function sendShiftNoticeJob(deps: OutboundDeps, job: Job, noticeId: string): Promise<void> {
  try {
    await sendNotice(deps, job, noticeId);
  } catch (error) {
    if (!(error instanceof MethodPausedError)) throw error;
    await job.moveToDelayed(Date.now() + error.waitMs, job.token);
    throw new DelayedError();
  }
}

async function sendNotice(deps: OutboundDeps, job: Job, noticeId: string): Promise<void> {
  await sendShiftNotice(deps.ctx, noticeId, async (message): Promise<ShiftNoticeOutcome> => {
    // One message, on the first platform (Slack first) that knows the person: a notice is news, not a
    // page, and one outcome is recorded for it.
    const platform = platformsOf(deps).find((p) => p.chatIdOf(message.person));
    const chatId = platform?.chatIdOf(message.person);
    if (!platform || !chatId) return { sent: false, code: 'no_chat_id' };
    try {
      await platform.sendDirectMessage(chatId, { text: platform.render.shiftNotice(message) });
      reportChatWorking(deps.ctx, platform.name);
      return { sent: true };
    } catch (error) {
      const problem = classifyCallError(platform, error);
      if (!problem) throw error;
      const lastTry = job.attemptsMade + 1 >= (job.opts.attempts ?? 1);
      deps.ctx.failures.failed(chatComponent(platform.name), {
        reason: problem.code,
        line: failureLine(platform.name, 'direct_message', problem.code),
        fields: {
          job_id: job.id,
          job: job.name,
          operation: 'direct_message',
          code: problem.code,
          shift_notice_id: noticeId,
        },
      });
      if (problem.kind === 'refused' || lastTry) return { sent: false, code: problem.code };
      throw error;
    }
  });
}
