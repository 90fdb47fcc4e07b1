import { telegram } from '@firebreak/db';
import type { TelegramSettingsView } from '@firebreak/schema';
import type { ServiceContext } from '../context';
import { resolveTelegram, type TelegramConfig } from './resolve-config';

/** `GET /api/v1/settings/telegram`: what is in effect and where it comes from; never the token. */
export async function getTelegramSettings(
  ctx: ServiceContext,
  env: TelegramConfig,
): Promise<TelegramSettingsView> {
  const resolved = await resolveTelegram(ctx, env);
  const [state, pending] = await Promise.all([
    telegram.readFeedState(ctx.sql),
    telegram.countPendingFeedMessages(ctx.sql),
  ]);
  return {
    bot_token_set: resolved.bot !== undefined,
    bot_token_source: resolved.botSource,
    feed_chat_id: resolved.feedChatId ?? null,
    feed_chat_id_source: resolved.feedChatIdSource,
    feed: {
      enabled: resolved.bot !== undefined && resolved.feedChatId !== undefined,
      pending,
      last_sent_at: state.last_sent_at?.toISOString() ?? null,
      failing_reason: state.failing_reason,
      failing_since: state.failing_since?.toISOString() ?? null,
      last_error: state.last_error,
    },
  };
}
