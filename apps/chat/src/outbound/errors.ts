import type { ChatPlatformName, ChatProblem, RefusalReason } from '../platform/chat-platform';

export type { ChatProblem } from '../platform/chat-platform';

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
 * The prefix is the platform's name.
 */
export function failureLine(platform: ChatPlatformName, operation: ChatOperation, code: string): string {
  if (operation === 'invite_member') return `${platform}: invite failed: ${code}`;
  return CREATION.has(operation)
    ? `${platform}: channel creation failed: ${code}`
    : `${platform}: post message failed: ${code}`;
}

/**
 * Seconds to wait when a platform rate-limited a call: every platform's rate-limit error carries
 * `retryAfter` (its `Retry-After`), which the shared pauses and the job's re-scheduling read.
 */
export function retryAfterOf(error: unknown): number | undefined {
  const retryAfter = (error as { retryAfter?: unknown } | null)?.retryAfter;
  return typeof retryAfter === 'number' ? retryAfter : undefined;
}

/**
 * A platform answered a call without what it must carry (a channel id, a message id): taken as an
 * outage (`transient`), so the job is tried again.
 */
export class IncompleteAnswerError extends Error {
  constructor(readonly code: string) {
    super(`the chat service's answer lacked what it must carry: ${code}`);
    this.name = 'IncompleteAnswerError';
  }
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

/** A `ChatCallError` that is a refusal: its `problem` carries the reason. */
type RefusedCallError = ChatCallError & { readonly problem: Extract<ChatProblem, { kind: 'refused' }> };

/** A refusal (optionally: for one of these reasons). */
export function isRefusal(error: unknown, ...reasons: RefusalReason[]): error is RefusedCallError {
  return (
    error instanceof ChatCallError &&
    error.problem.kind === 'refused' &&
    (reasons.length === 0 || reasons.includes(error.problem.reason))
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
