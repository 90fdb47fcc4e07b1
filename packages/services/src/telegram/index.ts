export {
  BOT_API_TIMEOUT_MS,
  type BotApiResult,
  callBotApi,
  escapeTelegramHtml,
  migratedError,
  redactToken,
  TELEGRAM_MAX_MESSAGE_CHARS,
  type TelegramBot,
  type TelegramMessage,
} from './bot-api';
export { feedGapMs, judgeFeedSend } from './feed-policy';
export { getTelegramSettings } from './get-telegram-settings';
export { type ResolvedTelegram, resolveTelegram, type TelegramConfig } from './resolve-config';
export { type FeedRunOptions, runTelegramFeed, type SendTelegramMessage, sendTelegramHtml } from './run-feed';
export { telegramBot, testTelegram } from './test-telegram';
export { updateTelegramSettings } from './update-telegram-settings';
