import { DelayedError, type Job } from '@firebreak/queue';
import { type ChatSession, type ServiceContext, withChatSession } from '@firebreak/services';
import type { ChatPlatform } from '../platform/chat-platform';
import { type SlackClientDeps, slackPlatform } from '../platform/slack/platform';
import {
  ChannelPacingError,
  ChatCallError,
  type ChatOperation,
  type ChatProblem,
  IncompleteAnswerError,
  MethodPausedError,
} from './errors';
import { logRetry, reportChatWorking, reportRefusal } from './failures';

interface CommonDeps {
  ctx: ServiceContext;
  /** `PUBLIC_URL` without a trailing slash: links in messages point there. */
  publicUrl: string;
}

/**
 * What outbound chat work needs: the platform to talk to (the worker's honours the shared rate-limit
 * pauses, rate-limit-pauses.ts), or Slack's Web API client alone, which stands for the Slack platform.
 */
export type OutboundDeps = CommonDeps & ({ platform: ChatPlatform } | SlackClientDeps);

/** The platform of `deps`. */
export function platformOf(deps: OutboundDeps): ChatPlatform {
  return 'platform' in deps ? deps.platform : slackPlatform(deps.client, deps);
}

/** One chat job at work: it holds its incident's chat lock (`session`, for the chat-channel verbs). */
export interface ChatJob extends CommonDeps {
  platform: ChatPlatform;
  session: ChatSession;
  job: Job;
  incidentId: string;
  /** Calls the platform; a failure the platform caused becomes a `ChatCallError`. */
  call<T>(operation: ChatOperation, request: (platform: ChatPlatform) => Promise<T>): Promise<T>;
}

/** A platform's failure in the shared categories; undefined when it is not the platform's. */
export function classifyCallError(platform: ChatPlatform, error: unknown): ChatProblem | undefined {
  if (error instanceof IncompleteAnswerError) return { kind: 'transient', code: error.code };
  return platform.classifyError(error);
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
  const platform = platformOf(deps);
  const locked = await withChatSession(deps.ctx, incidentId, async (session) => {
    const jc: ChatJob = {
      ctx: deps.ctx,
      publicUrl: deps.publicUrl,
      platform,
      session,
      job,
      incidentId,
      call: async (operation, request) => {
        try {
          const answer = await request(platform);
          reportChatWorking(deps.ctx, platform.name);
          return answer;
        } catch (error) {
          const problem = classifyCallError(platform, error);
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
