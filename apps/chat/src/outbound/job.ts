import { DelayedError, type Job } from '@firebreak/queue';
import { type ChatSession, type ServiceContext, withChatSession } from '@firebreak/services';
import type { WebClient } from '@slack/web-api';
import {
  ChannelPacingError,
  ChatCallError,
  type ChatOperation,
  classifyChatError,
  MethodPausedError,
} from './errors';
import { logRetry, reportChatWorking, reportRefusal } from './failures';

export interface OutboundDeps {
  ctx: ServiceContext;
  /** The worker's client honours the shared rate-limit pauses (rate-limit-pauses.ts). */
  client: WebClient;
  /** `PUBLIC_URL` without a trailing slash: links in messages point there. */
  publicUrl: string;
  /** Direct-message channel ids by chat user id, kept for the worker's life (escalation-notice.ts). */
  directChannels?: Map<string, string>;
}

/** One chat job at work: it holds its incident's chat lock (`session`, for the chat-channel verbs). */
export interface ChatJob extends OutboundDeps {
  session: ChatSession;
  job: Job;
  incidentId: string;
  /** Calls the chat service; a failure the chat service caused becomes a `ChatCallError`. */
  call<T>(operation: ChatOperation, request: (client: WebClient) => Promise<T>): Promise<T>;
}

// Another job of the same incident is working: come back shortly (it does not count as a try).
const LOCK_BUSY_DELAY_MS = 150;

export const isLastTry = (job: Job) => job.attemptsMade + 1 >= (job.opts.attempts ?? 1);

/**
 * Runs one chat job under its incident's lock and turns chat failures into what the job does next:
 * its channel posted to under a second ago → re-scheduled for when it may post again; rate limited →
 * re-scheduled for `Retry-After` (not a failed try); a method paused by an earlier 429 (of any job) →
 * re-scheduled for the end of the pause, without calling; unreachable → thrown for BullMQ's backoff, until
 * the last try, which counts as a refusal; refused → the `slack: … failed: <code>` log line and one
 * `chat_failed` entry (docs/integrations/slack.md#failures), and the job ends (retrying cannot help).
 * Other errors are thrown as they are.
 */
export async function runChatJob(
  deps: OutboundDeps,
  job: Job,
  incidentId: string,
  work: (jc: ChatJob) => Promise<void>,
): Promise<void> {
  const locked = await withChatSession(deps.ctx, incidentId, async (session) => {
    const jc: ChatJob = {
      ...deps,
      session,
      job,
      incidentId,
      call: async (operation, request) => {
        try {
          const answer = await request(deps.client);
          reportChatWorking(deps);
          return answer;
        } catch (error) {
          const problem = classifyChatError(error);
          throw problem ? new ChatCallError(operation, problem, { cause: error }) : error;
        }
      },
    };
    try {
      await work(jc);
    } catch (error) {
      if (error instanceof ChannelPacingError || error instanceof MethodPausedError) {
        return { delayMs: error.waitMs };
      }
      if (!(error instanceof ChatCallError)) throw error;
      const { problem } = error;
      if (problem.kind === 'rate_limited') {
        logRetry(jc, error, problem.retryAfterS * 1000);
        return { delayMs: problem.retryAfterS * 1000 };
      }
      if (problem.kind === 'transient' && !isLastTry(job)) {
        logRetry(jc, error, undefined);
        throw error;
      }
      await reportRefusal(jc, error);
    }
    return undefined;
  });
  const delayMs = locked ? locked.value?.delayMs : LOCK_BUSY_DELAY_MS + Math.random() * LOCK_BUSY_DELAY_MS;
  if (delayMs !== undefined) {
    await job.moveToDelayed(Date.now() + delayMs, job.token);
    throw new DelayedError();
  }
}
