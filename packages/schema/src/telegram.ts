import { z } from 'zod';
import { telegramChatId } from './paging';

// Settings → Telegram (docs/telegram.md): the bot token goes in and never comes out.

/**
 * BotFather's token: the bot's id, a colon, then the secret part. It becomes part of every Bot API
 * URL's path, so nothing outside that alphabet (a `/` above all) gets through. TELEGRAM_BOT_TOKEN is
 * held to the same pattern by the configuration (packages/config), which cannot import this one.
 */
export const telegramBotToken = z
  .string()
  .trim()
  .regex(/^\d{1,20}:[A-Za-z0-9_-]{30,100}$/, 'must be a bot token as BotFather gives it: 123456:ABC-DEF…');

/** `PUT /api/v1/settings/telegram`: each field left out stays as it is; null removes it. */
export const TelegramSettingsInput = z
  .strictObject({
    bot_token: telegramBotToken.nullable().optional(),
    feed_chat_id: telegramChatId.nullable().optional(),
  })
  .refine((input) => input.bot_token !== undefined || input.feed_chat_id !== undefined, {
    message: 'give bot_token or feed_chat_id',
  });
export type TelegramSettingsInput = z.infer<typeof TelegramSettingsInput>;

const TelegramSource = z.enum(['env', 'settings']).nullable();

export const TelegramSettingsView = z.object({
  /** Whether a bot token is in effect; the token itself is never returned. */
  bot_token_set: z.boolean(),
  /** `env` when TELEGRAM_BOT_TOKEN is set (it wins, and Settings cannot change it). */
  bot_token_source: TelegramSource,
  feed_chat_id: z.string().nullable(),
  feed_chat_id_source: TelegramSource,
  feed: z.object({
    /** A bot token and a feed chat are both in effect. */
    enabled: z.boolean(),
    /** Messages waiting to be sent (paced, or held back by a failure). */
    pending: z.number().int(),
    last_sent_at: z.string().nullable(),
    /** The failure now (`unauthorized`, `chat_not_found`, `network`…), null while it works. */
    failing_reason: z.string().nullable(),
    failing_since: z.string().nullable(),
    last_error: z.string().nullable(),
  }),
});
export type TelegramSettingsView = z.infer<typeof TelegramSettingsView>;

/** `POST /api/v1/settings/telegram/test`: what `getMe` and a message to the feed chat came to. */
export const TelegramTestResult = z.object({
  ok: z.boolean(),
  /** The bot's @username, when the token was accepted. */
  bot_username: z.string().nullable(),
  /** Why it failed, in Telegram's words; null when it worked. */
  error: z.string().nullable(),
});
export type TelegramTestResult = z.infer<typeof TelegramTestResult>;
