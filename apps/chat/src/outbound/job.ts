import { DelayedError, type Job } from '@firebreak/queue';
import { type ChatSession, type ServiceContext, withChatSession } from '@firebreak/services';
import type { ChatPlatform, ChatPlatformName } from '../platform/chat-platform';
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
 * What outbound chat work needs: the platforms to talk to (the worker's honour the shared rate-limit
 * pauses, rate-limit-pauses.ts), one platform, or Slack's Web API client alone, which stands for the
 * Slack platform.
 */
export type OutboundDeps = CommonDeps &
  ({ platforms: ChatPlatform[] } | { platform: ChatPlatform } | SlackClientDeps);

/** The platforms of `deps`, in the order their work is done (Slack first). */
export function platformsOf(deps: OutboundDeps): ChatPlatform[] {
  if ('platforms' in deps) return deps.platforms;
  return ['platform' in deps ? deps.platform : slackPlatform(deps.client, deps)];
}

/** One chat job at work on one platform: it holds its incident's chat lock (`session`, for the chat-channel verbs). */
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

/** How one platform's part of a job ended: done, to come back to after `delayMs`, or thrown for BullMQ. */
type PlatformOutcome =
  | { kind: 'done' }
  | { kind: 'delay'; delayMs: number }
  | { kind: 'throw'; error: unknown };

/**
 * Runs one chat job under its incident's lock, once for each platform (`only` narrows them: a question
 * asked in Slack is answered in Slack), and turns chat failures into what the job does next. Per
 * platform: its channel posted to under a second ago → come back when it may post again; rate limited
 * → come back at `Retry-After` (not a failed try); a method paused by an earlier 429 (of any job) →
 * come back at the end of the pause, without calling; unreachable → thrown for BullMQ's backoff, until
 * the last try, which counts as a refusal; refused → the `<platform>: … failed: <code>` log line and
 * one `chat_failed` entry (docs/integrations/slack.md#failures), and that platform's part ends
 * (retrying cannot help). Other errors are thrown as they are. One platform's trouble never stops the
 * others' work: each part runs, and the job is thrown (or re-scheduled) afterwards, when it runs again
 * only what is still missing (every step is recorded per platform).
 */
export async function runChatJob(
  deps: OutboundDeps,
  job: Job,
  incidentId: string,
  work: (jc: ChatJob) => Promise<void>,
  only?: ChatPlatformName,
): Promise<void> {
  const platforms = platformsOf(deps).filter((platform) => !only || platform.name === only);
  const locked = await withChatSession(deps.ctx, incidentId, async (sessionFor) => {
    const outcomes: PlatformOutcome[] = [];
    for (const platform of platforms) {
      outcomes.push(await runOnPlatform(deps, job, incidentId, platform, sessionFor(platform.name), work));
    }
    return outcomes;
  });
  if (!locked) return delayJob(job, LOCK_BUSY_DELAY_MS + Math.random() * LOCK_BUSY_DELAY_MS);
  const thrown = locked.value.find((outcome) => outcome.kind === 'throw');
  if (thrown) throw thrown.error;
  const delays = locked.value.flatMap((outcome) => (outcome.kind === 'delay' ? [outcome.delayMs] : []));
  if (delays.length > 0) await delayJob(job, Math.min(...delays));
}

async function runOnPlatform(
  deps: OutboundDeps,
  job: Job,
  incidentId: string,
  platform: ChatPlatform,
  session: ChatSession,
  work: (jc: ChatJob) => Promise<void>,
): Promise<PlatformOutcome> {
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
      return { kind: 'delay', delayMs: error.waitMs };
    }
    if (!(error instanceof ChatCallError)) return { kind: 'throw', error };
    const { problem } = error;
    if (problem.kind === 'rate_limited') {
      logRetry(jc, error, problem.retryAfterS * 1000);
      return { kind: 'delay', delayMs: problem.retryAfterS * 1000 };
    }
    if (problem.kind === 'transient' && !isLastTry(job)) {
      logRetry(jc, error, undefined);
      return { kind: 'throw', error };
    }
    await reportRefusal(jc, error);
  }
  return { kind: 'done' };
}

/** Comes back to the job after `delayMs`, without counting a try. */
async function delayJob(job: Job, delayMs: number): Promise<never> {
  await job.moveToDelayed(Date.now() + delayMs, job.token);
  throw new DelayedError();
}
