import type { Config } from '@firebreak/config';
import { LogLevel, WebClient } from '@slack/web-api';

/**
 * The one place the chat Web API client is made. It lives in a package, not in apps/chat, because the
 * API checks the bot token too (Settings → Chat) and an app must not import another app; the lint
 * keeps @slack/web-api inside this package and apps/chat.
 * The client itself never retries or waits out rate limits: BullMQ owns retries (a job that waits
 * inside a client would hold its lock for minutes), and a 429 surfaces as an error carrying
 * `retryAfter`, so the job can be re-scheduled for exactly then.
 */
export function createChatClient(chat: Config['chat']): WebClient | undefined {
  if (!chat.botToken) return undefined;
  return new WebClient(chat.botToken, {
    slackApiUrl: chat.apiUrl,
    retryConfig: { retries: 0 },
    rejectRateLimitedCalls: true,
    timeout: 10_000,
    // Failures are reported by our own log lines (`slack: … failed: <code>`); the client's console
    // warnings would only repeat them outside the structured log.
    logLevel: LogLevel.ERROR,
  });
}

/** The chat service's error code of a failed call (`invalid_auth`, `not_in_channel`…), if it gave one. */
export function chatErrorCode(error: unknown): string | undefined {
  const data = (error as { data?: { error?: unknown } }).data;
  return typeof data?.error === 'string' ? data.error : undefined;
}

/** Seconds to wait when the chat service rate-limited the call, else undefined. */
export function retryAfterSeconds(error: unknown): number | undefined {
  const retryAfter = (error as { retryAfter?: unknown }).retryAfter;
  return typeof retryAfter === 'number' ? retryAfter : undefined;
}
