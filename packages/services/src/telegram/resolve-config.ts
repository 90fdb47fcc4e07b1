import { settings, telegram } from '@firebreak/db';
import type { ServiceContext } from '../context';
import type { TelegramBot } from './bot-api';

export type TelegramSource = 'env' | 'settings';

/** The environment's part (`config.telegram`, docs/telegram.md#configuration). */
export interface TelegramConfig {
  botToken: string | undefined;
  chatId: string | undefined;
  apiUrl: string;
}

/** What is in effect now: the bot (for pages and the feed) and the feed's chat, with where each came from. */
export interface ResolvedTelegram {
  bot: TelegramBot | undefined;
  botSource: TelegramSource | null;
  feedChatId: string | undefined;
  feedChatIdSource: TelegramSource | null;
}

/**
 * The environment wins over Settings → Telegram, value by value, as for every other setting that can be
 * given both ways: what the deployment pins cannot be changed from the console (docs/telegram.md).
 * Read on each use, so a token saved in Settings is used by the next page without a restart.
 */
export async function resolveTelegram(ctx: ServiceContext, env: TelegramConfig): Promise<ResolvedTelegram> {
  const stored =
    env.botToken !== undefined && env.chatId !== undefined
      ? new Map<string, unknown>()
      : await settings.listSettings(ctx.sql);
  const storedToken = stringOf(stored.get(telegram.telegramSettingKeys.botToken));
  const storedChat = stringOf(stored.get(telegram.telegramSettingKeys.feedChatId));
  const token = env.botToken ?? storedToken;
  const feedChatId = env.chatId ?? storedChat;
  return {
    bot: token ? { token, apiUrl: env.apiUrl.replace(/\/+$/, '') } : undefined,
    botSource: env.botToken ? 'env' : storedToken ? 'settings' : null,
    feedChatId,
    feedChatIdSource: env.chatId ? 'env' : storedChat ? 'settings' : null,
  };
}

function stringOf(value: unknown): string | undefined {
  return typeof value === 'string' && value !== '' ? value : undefined;
}
