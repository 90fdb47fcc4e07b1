import type { Config } from '@firebreak/config';
import type { ChatAuthTest } from '@firebreak/services';
import type { WebClient } from '@slack/web-api';
import { chatErrorCode, createChatClient } from './client';

export interface ChatAuthCheck {
  /** Settings view: the last answer if under a minute old, else a fresh one. Null when chat is off. */
  current(): Promise<ChatAuthTest | null>;
  /** `POST /api/v1/settings/chat/test`: ask the chat service now. Null when chat is off. */
  runNow(): Promise<ChatAuthTest | null>;
}

export interface ChatAuthCheckOptions {
  now?: () => number;
  cacheMs?: number;
  /** How long the settings view waits for a fresh answer before saying `timeout`. */
  viewWaitMs?: number;
}

/**
 * The bot token checked with the chat service's `auth.test` for Settings → Chat. Answers are kept a minute so
 * that opening the settings page does not call the chat service each time, and a slow chat service
 * holds the page up for at most `viewWaitMs` (its answer is still kept when it comes). The token is
 * never part of an answer: only the chat service's verdict and whom the token belongs to.
 */
export function createChatAuthCheck(chat: Config['chat'], options: ChatAuthCheckOptions = {}): ChatAuthCheck {
  const { now = Date.now, cacheMs = 60_000, viewWaitMs = 3000 } = options;
  const client = createChatClient(chat);
  let last: { result: ChatAuthTest; at: number } | undefined;
  let pending: Promise<ChatAuthTest> | undefined;

  const run = (webClient: WebClient): Promise<ChatAuthTest> => {
    pending ??= authTest(webClient)
      .then((result) => {
        last = { result, at: now() };
        return result;
      })
      .finally(() => {
        pending = undefined;
      });
    return pending;
  };

  return {
    async current() {
      if (!client) return null;
      if (last && now() - last.at < cacheMs) return last.result;
      let timer: NodeJS.Timeout | undefined;
      const timeout = new Promise<ChatAuthTest>((resolve) => {
        timer = setTimeout(() => resolve({ ok: false, error: 'timeout' }), viewWaitMs);
      });
      try {
        return await Promise.race([run(client), timeout]);
      } finally {
        clearTimeout(timer);
      }
    },
    async runNow() {
      return client ? run(client) : null;
    },
  };
}

async function authTest(client: WebClient): Promise<ChatAuthTest> {
  try {
    const res = await client.auth.test();
    return { ok: true, team: res.team ?? '', user: res.user ?? '', bot_id: res.bot_id ?? '' };
  } catch (error) {
    return { ok: false, error: chatErrorCode(error) ?? transportError(error) };
  }
}

/** No chat error code: say how the call failed (from the SDK's error classes). */
function transportError(error: unknown): string {
  switch ((error as { code?: unknown }).code) {
    case 'slack_webapi_rate_limited_error':
      return 'ratelimited';
    case 'slack_webapi_request_error':
      return 'unreachable';
    case 'slack_webapi_http_error':
      return `http_${(error as { statusCode?: unknown }).statusCode ?? 'error'}`;
    default:
      return 'unknown_error';
  }
}
