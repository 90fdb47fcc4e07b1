import { recordChatFailure } from '@firebreak/services';
import type { ChatPlatformName } from '../platform/chat-platform';
import { type ChatCallError, failureLine } from './errors';
import type { ChatJob } from './job';
import type { PauseScope } from './rate-limit-pauses';

/**
 * Each platform fails and recovers on its own: Slack working again must not end Teams' outage in the
 * log. Slack keeps the `chat` component it always had (`/metrics`, dashboards); others are `chat:<name>`.
 */
export const chatComponent = (platform: ChatPlatformName) =>
  platform === 'slack' ? ('chat' as const) : (`chat:${platform}` as const);

const fields = (jc: ChatJob, error: ChatCallError) => ({
  incident_id: jc.incidentId,
  job_id: jc.job.id,
  job: jc.job.name,
  operation: error.operation,
  code: error.code,
  ...error.detail,
});

/**
 * The chat service failing, to the failure log: the documented line (`slack: channel creation failed:
 * <code>` or `slack: post message failed: <code>`, docs/integrations/slack.md#failures) is written when
 * chat starts failing or the code changes, not for every job of a revoked token; each one is counted in
 * `/metrics`.
 */
export function reportChatFailure(
  jc: ChatJob,
  error: ChatCallError,
  extra: Record<string, unknown> = {},
): void {
  jc.ctx.failures.failed(chatComponent(jc.platform.name), {
    reason: error.code,
    line: failureLine(jc.platform.name, error.operation, error.code),
    fields: { ...fields(jc, error), ...extra },
  });
}

/** A successful chat call after failures: logged once. */
export function reportChatWorking(ctx: ChatJob['ctx'], platform: ChatPlatformName): void {
  ctx.failures.recovered(chatComponent(platform), 'default', `${platform}: calls succeeding again`);
}

/**
 * A chat failure retrying cannot fix: the failure log, and one `chat_failed` entry per incident,
 * operation and code, so a dead channel or a revoked token does not flood the timeline. The incident
 * itself is untouched.
 */
export async function reportRefusal(
  jc: ChatJob,
  error: ChatCallError,
  extra: Record<string, unknown> = {},
): Promise<void> {
  reportChatFailure(jc, error, extra);
  await recordChatFailure(jc.session, { operation: error.operation, code: error.code });
}

/**
 * A failure that will be retried. A rate limit is the chat service working as designed: a warning
 * per job. The service unreachable is a failure of its own, logged once per change of state.
 */
export function logRetry(jc: ChatJob, error: ChatCallError, retryInMs: number | undefined): void {
  const extra = { attempt: jc.job.attemptsMade + 1, retry_in_ms: retryInMs };
  if (error.problem.kind !== 'rate_limited') {
    reportChatFailure(jc, error, extra);
    return;
  }
  jc.ctx.logger.warn(
    { ...fields(jc, error), ...extra },
    failureLine(jc.platform.name, error.operation, error.code),
  );
}

const pauseFields = (scope: PauseScope) => ({
  method: scope.method,
  ...(scope.channelId ? { channel_id: scope.channelId } : {}),
});

/**
 * A 429 paused a method for every chat job (docs/runbooks/chat-rate-limited.md). Logged by the one
 * worker, of all processes, whose 429 started the pause; the jobs that wait it out log nothing.
 */
export function reportPauseStarted(
  ctx: Pick<ChatJob['ctx'], 'logger'>,
  platform: ChatPlatformName,
  scope: PauseScope,
  retryAfterS: number,
) {
  ctx.logger.warn(
    { ...pauseFields(scope), retry_after_s: retryAfterS },
    `${platform}: rate limited, calls paused: ${scope.method}`,
  );
}

/** The first call of a paused method that succeeds after the pause: logged once, by one process. */
export function reportPauseEnded(
  ctx: Pick<ChatJob['ctx'], 'logger'>,
  platform: ChatPlatformName,
  scope: PauseScope,
) {
  ctx.logger.info(pauseFields(scope), `${platform}: rate limit over, calls resumed: ${scope.method}`);
}
