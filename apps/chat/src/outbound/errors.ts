import { chatErrorCode, retryAfterSeconds } from '@firebreak/chat-client';
import { ErrorCode } from '@slack/web-api';

/** What a job was doing when a chat call failed: the `operation` of its `chat_failed` entry. */
export type ChatOperation =
  | 'create_channel'
  | 'setup_channel'
  | 'post_card'
  | 'post_message'
  | 'update_card'
  | 'update_topic'
  | 'rename_channel'
  | 'direct_message'
  | 'invite_member'
  | 'answer_question';

/** Setting a channel up counts as creating it; everything after as posting (the log lines below). */
const CREATION: ReadonlySet<ChatOperation> = new Set(['create_channel', 'setup_channel']);

/**
 * The exact log line (docs/integrations/slack.md#failures), e.g.
 * `slack: post message failed: not_in_channel`; invites have their own, `slack: invite failed: <code>`.
 */
export function failureLine(operation: ChatOperation, code: string): string {
  if (operation === 'invite_member') return `slack: invite failed: ${code}`;
  return CREATION.has(operation)
    ? `slack: channel creation failed: ${code}`
    : `slack: post message failed: ${code}`;
}

/**
 * - `rate_limited`: try again at `retryAfterS` (does not count as a failed try).
 * - `transient`: the chat service is down or unreachable; BullMQ backs off and tries again.
 * - `refused`: the chat service answered `ok: false`; trying again gives the same answer.
 */
export type ChatProblem =
  | { kind: 'rate_limited'; code: string; retryAfterS: number }
  | { kind: 'transient'; code: string }
  | { kind: 'refused'; code: string };

// `rate_limited` and `message_limit_exceeded` come as `ok: false` bodies (chat.postMessage's own
// limits); Grafana OnCall treats them as rate limits too (docs/integrations/slack.md#failures).
const RATE_LIMIT_CODES = new Set(['ratelimited', 'rate_limited', 'message_limit_exceeded']);
const TRANSIENT_CODES = new Set(['internal_error', 'fatal_error', 'service_unavailable', 'request_timeout']);
const DEFAULT_RETRY_AFTER_S = 5;

/** Undefined for errors that are not the chat service's (a bug of ours: BullMQ retries those). */
export function classifyChatError(error: unknown): ChatProblem | undefined {
  const retryAfter = retryAfterSeconds(error);
  if (retryAfter !== undefined) return { kind: 'rate_limited', code: 'ratelimited', retryAfterS: retryAfter };
  const code = chatErrorCode(error);
  if (code !== undefined) {
    if (RATE_LIMIT_CODES.has(code)) return { kind: 'rate_limited', code, retryAfterS: DEFAULT_RETRY_AFTER_S };
    return { kind: TRANSIENT_CODES.has(code) ? 'transient' : 'refused', code };
  }
  const { code: kind, statusCode } = error as { code?: unknown; statusCode?: unknown };
  if (kind === ErrorCode.HTTPError) return { kind: 'transient', code: `http_${String(statusCode)}` };
  if (kind === ErrorCode.RequestError) return { kind: 'transient', code: 'network_error' };
  return undefined;
}

/** A chat call that failed, with what we were doing. */
export class ChatCallError extends Error {
  /** More to log beside the code (e.g. why rejoining a channel failed). */
  detail: Record<string, unknown> = {};

  constructor(
    readonly operation: ChatOperation,
    readonly problem: ChatProblem,
    options?: ErrorOptions,
  ) {
    super(`${operation}: ${problem.code}`, options);
    this.name = 'ChatCallError';
  }

  get code(): string {
    return this.problem.code;
  }
}

/** A refusal (optionally: with one of these codes). */
export function isRefusal(error: unknown, ...codes: string[]): error is ChatCallError {
  return (
    error instanceof ChatCallError &&
    error.problem.kind === 'refused' &&
    (codes.length === 0 || codes.includes(error.problem.code))
  );
}

/**
 * The incident's channel is not there yet (creation is still being retried): a retryable failure, so
 * the job tries again after BullMQ's backoff.
 */
export class ChannelPendingError extends Error {
  constructor(incidentId: string) {
    super(`incident ${incidentId}: chat channel not opened yet`);
    this.name = 'ChannelPendingError';
  }
}

/**
 * The channel had a post less than a second ago. Rather than sleep with a worker slot (and a database
 * connection) held, the job steps aside and comes back when the channel may be posted to again, so
 * one busy channel never slows the channels of other incidents (a backlog after an outage).
 */
export class ChannelPacingError extends Error {
  constructor(readonly waitMs: number) {
    super(`channel posted to less than a second ago; again in ${waitMs} ms`);
    this.name = 'ChannelPacingError';
  }
}

/**
 * The chat service rate-limited this method a moment ago (rate-limit-pauses.ts): the call was not
 * made. Like a 429 of its own, the job comes back when the pause ends, without counting a try.
 */
export class MethodPausedError extends Error {
  constructor(
    readonly method: string,
    readonly waitMs: number,
  ) {
    super(`${method} is paused by a chat rate limit for another ${waitMs} ms`);
    this.name = 'MethodPausedError';
  }
}
