/** The bot's credentials and the Bot API's address (docs/telegram.md#configuration). */
export interface TelegramBot {
  token: string;
  /** `TELEGRAM_API_URL`, without a trailing slash. */
  apiUrl: string;
}

/** What one Bot API call came to. Never carries the token: it is part of the request's URL. */
export type BotApiResult<T> =
  | { kind: 'ok'; result: T }
  | {
      kind: 'refused';
      /** The HTTP status, and Telegram's `error_code` (the same number in practice). */
      status: number;
      description: string;
      /** `parameters.retry_after` of a 429, in seconds. */
      retryAfterS?: number;
      /** `parameters.migrate_to_chat_id`: the group became a supergroup with this new id. */
      migrateToChatId?: string;
    }
  | { kind: 'unreachable'; error: string };

export interface TelegramMessage {
  message_id: number;
  chat: { id: number };
}

/** The whole exchange, connection included: a page and the feed wait on it. */
export const BOT_API_TIMEOUT_MS = 10_000;

/**
 * Calls one Bot API method (`POST <api>/bot<token>/<method>`, a JSON body). The token is in the URL's
 * path, so no URL, request or fetch error object leaves this function: a network failure is described
 * by its socket code only, and any text that came back is stripped of the token before it is kept.
 */
export async function callBotApi<T>(
  bot: TelegramBot,
  method: 'sendMessage' | 'getMe',
  body: Record<string, unknown>,
): Promise<BotApiResult<T>> {
  let response: Response;
  try {
    response = await fetch(`${bot.apiUrl.replace(/\/+$/, '')}/bot${bot.token}/${method}`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', accept: 'application/json' },
      body: JSON.stringify(body),
      redirect: 'manual',
      signal: AbortSignal.timeout(BOT_API_TIMEOUT_MS),
    });
  } catch (error) {
    return { kind: 'unreachable', error: redactToken(networkFailure(error), bot.token) };
  }
  const answer = await readAnswer(response);
  if (response.ok && answer.ok === true) return { kind: 'ok', result: answer.result as T };
  const description =
    typeof answer.description === 'string' ? answer.description.slice(0, 300) : `HTTP ${response.status}`;
  const retryAfter = answer.parameters?.retry_after;
  const migrateTo = answer.parameters?.migrate_to_chat_id;
  return {
    kind: 'refused',
    status: response.status,
    description: redactToken(description, bot.token),
    ...(typeof retryAfter === 'number' && retryAfter >= 0 ? { retryAfterS: retryAfter } : {}),
    ...(typeof migrateTo === 'number' && Number.isSafeInteger(migrateTo)
      ? { migrateToChatId: String(migrateTo) }
      : {}),
  };
}

interface BotApiAnswer {
  ok?: unknown;
  result?: unknown;
  description?: unknown;
  parameters?: { retry_after?: unknown; migrate_to_chat_id?: unknown };
}

async function readAnswer(response: Response): Promise<BotApiAnswer> {
  try {
    const parsed: unknown = JSON.parse(await response.text());
    return parsed && typeof parsed === 'object' ? (parsed as BotApiAnswer) : {};
  } catch {
    // A proxy's HTML page, or a body cut short: the status says enough.
    return {};
  }
}

/** A failed request in words: the timeout or the socket's own reason, never the request (its URL). */
function networkFailure(error: unknown): string {
  if (error instanceof Error && (error.name === 'TimeoutError' || error.name === 'AbortError')) {
    return `timed out after ${BOT_API_TIMEOUT_MS / 1000} s`;
  }
  const cause = error instanceof Error ? (error.cause as { code?: unknown } | undefined) : undefined;
  return typeof cause?.code === 'string' ? cause.code : 'network error';
}

/** `text` without the token, and without any `/bot<token>` path, should one ever be echoed back. */
export function redactToken(text: string, token: string): string {
  const cleared = token ? text.split(token).join('[redacted]') : text;
  return cleared.replace(/\/bot\d+:[A-Za-z0-9_-]+/g, '/bot[redacted]');
}

/** Text for HTML `parse_mode`: only `<`, `>` and `&` are special (docs/telegram.md#what-is-sent). */
export function escapeTelegramHtml(text: string): string {
  return text.replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/>/g, '&gt;').replace(/"/g, '&quot;');
}

/**
 * The 400s that concern one message's content alone (docs/telegram.md#retries-and-failures): any other
 * 400 concerns the chat or the bot (chat not found, upgraded to a supergroup, not enough rights…) and
 * would refuse every message the same way.
 */
export function isContentRefusal(description: string): boolean {
  return /can't parse entities|message is too long|message text is empty|text must be encoded in utf-8/i.test(
    description,
  );
}

/** "…upgraded to a supergroup chat" with the id to use from now on: what to tell an admin or a person. */
export function migratedError(status: number, description: string, newChatId: string): string {
  return `telegram ${status}: ${description} (the chat's new id is ${newChatId})`;
}

/** Telegram refuses a message longer than this many characters (after entities are parsed). */
export const TELEGRAM_MAX_MESSAGE_CHARS = 4096;
