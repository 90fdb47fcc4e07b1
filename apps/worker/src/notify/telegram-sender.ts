import {
  type BotApiResult,
  escapeTelegramHtml as esc,
  migratedError,
  sendTelegramHtml,
  type TelegramBot,
  type TelegramMessage,
} from '@firebreak/services';
import type { PageContent } from './messages';
import type { SendOutcome } from './outcome';

/**
 * Sends one message to a person's Telegram chat (docs/telegram.md#pages) and says what it came to. Never
 * throws, and never reports the request: the bot token is part of the Bot API's URL.
 */
export async function sendTelegram(bot: TelegramBot, chatId: string, html: string): Promise<SendOutcome> {
  return telegramOutcome(await sendTelegramHtml(bot, chatId, html));
}

/**
 * The person blocked the bot, left or deleted the chat (403), or the chat id is unknown to the bot
 * (400 "chat not found"): every later page would be refused the same way, so the method is disabled
 * with that reason, as push does for a subscription that is gone. So is a group upgraded to a
 * supergroup: its old id is refused from now on, and the reason names the new one the person should
 * verify instead. A refused token (401) is this server's problem, not the person's: the page fails,
 * the method stays. 429 and 5xx may pass.
 */
export function telegramOutcome(result: BotApiResult<TelegramMessage>): SendOutcome {
  if (result.kind === 'ok') return { ok: true, providerId: String(result.result.message_id) };
  if (result.kind === 'unreachable') {
    return { ok: false, retryable: true, error: `telegram unreachable: ${result.error}` };
  }
  const error = `telegram ${result.status}: ${result.description}`;
  if (result.status === 429 || result.status >= 500) {
    const retryAfterMs = result.retryAfterS !== undefined ? result.retryAfterS * 1000 : undefined;
    return { ok: false, retryable: true, error, ...(retryAfterMs !== undefined ? { retryAfterMs } : {}) };
  }
  if (result.migrateToChatId !== undefined) {
    const reason = migratedError(result.status, result.description, result.migrateToChatId);
    return { ok: false, retryable: false, error: reason, gone: true };
  }
  const gone = result.status === 403 || (result.status === 400 && /chat not found/i.test(result.description));
  return { ok: false, retryable: false, error, ...(gone ? { gone: true } : {}) };
}

/** A page: the incident, and the links to acknowledge it and to open it. Everything given is escaped. */
export function pageTelegram(p: PageContent): string {
  return [
    `🚨 <b>Incident #${p.incident.number} (${esc(p.incident.severity)})</b>`,
    esc(p.incident.title),
    '',
    `${esc(p.person)}, you are paged.`,
    `<a href="${esc(p.ackUrl)}">Acknowledge</a> · <a href="${esc(p.incidentUrl)}">Open the incident</a>`,
  ].join('\n');
}

export const codeTelegram = (code: string) =>
  `Your Firebreak verification code is <b>${code}</b>. It works for 10 minutes.`;

export const testTelegram = 'This is a test notification from Firebreak. Pages will reach you here.';
