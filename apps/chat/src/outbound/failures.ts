import { chat } from '@firebreak/db';
import { type ChatCallError, failureLine } from './errors';
import type { ChatJob } from './job';

const fields = (jc: ChatJob, error: ChatCallError) => ({
  incident_id: jc.incidentId,
  job_id: jc.job.id,
  job: jc.job.name,
  operation: error.operation,
  code: error.code,
  ...error.detail,
});

/**
 * A chat failure retrying cannot fix: the spec's log line (`slack: channel creation failed: <code>` or
 * `slack: post message failed: <code>`) and one `chat_failed` entry per incident, operation and code,
 * so a dead channel or a revoked token does not flood the timeline. The incident itself is untouched.
 */
export async function reportRefusal(
  jc: ChatJob,
  error: ChatCallError,
  extra: Record<string, unknown> = {},
): Promise<void> {
  jc.ctx.logger.error({ ...fields(jc, error), ...extra }, failureLine(error.operation, error.code));
  await chat.recordChatFailureOnce(
    jc.sql,
    jc.incidentId,
    { operation: error.operation, code: error.code },
    jc.ctx.now(),
  );
}

/** A failure that will be retried (rate limit, chat service unreachable): the same line, as a warning. */
export function logRetry(jc: ChatJob, error: ChatCallError, retryInMs: number | undefined): void {
  jc.ctx.logger.warn(
    { ...fields(jc, error), attempt: jc.job.attemptsMade + 1, retry_in_ms: retryInMs },
    failureLine(error.operation, error.code),
  );
}
