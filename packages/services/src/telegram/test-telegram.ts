import { AppError, type TelegramTestResult } from '@firebreak/schema';
import type { ServiceContext } from '../context';
import { callBotApi, type TelegramBot } from './bot-api';
import { resolveTelegram, type TelegramConfig } from './resolve-config';
import { type SendTelegramMessage, sendTelegramHtml } from './run-feed';

/**
 * `POST /api/v1/settings/telegram/test` (admin): `getMe` with the token in effect, then, when a feed
 * chat is set, a test message to it, now, answered with what Telegram said. Like Settings → Chat → Test,
 * it is the admin's own check, made while they wait, so it goes out directly rather than through a job.
 */
export async function testTelegram(
  ctx: ServiceContext,
  env: TelegramConfig,
  send: SendTelegramMessage = sendTelegramHtml,
): Promise<TelegramTestResult> {
  const resolved = await resolveTelegram(ctx, env);
  if (!resolved.bot) throw new AppError('conflict', 'Set a Telegram bot token first.');
  const me = await callBotApi<{ username?: string }>(resolved.bot, 'getMe', {});
  if (me.kind !== 'ok') return failed(ctx, null, me.kind === 'refused' ? me.description : me.error);
  const username = me.result.username ?? null;
  if (!resolved.feedChatId) return { ok: true, bot_username: username, error: null };
  const sent = await send(
    resolved.bot,
    resolved.feedChatId,
    'This is a test message from Firebreak. The incident feed will post here.',
  );
  if (sent.kind !== 'ok')
    return failed(ctx, username, sent.kind === 'refused' ? sent.description : sent.error);
  return { ok: true, bot_username: username, error: null };
}

function failed(ctx: ServiceContext, username: string | null, error: string): TelegramTestResult {
  ctx.logger.warn({ error }, 'telegram: test message failed');
  return { ok: false, bot_username: username, error };
}

/**
 * The bot for a page or a code, when a token is in effect. The environment's token needs no database
 * read; Settings are read only without it, and a failure to read them is thrown, not taken for "no
 * token": the caller retries later rather than failing the page as not configured.
 */
export async function telegramBot(
  ctx: ServiceContext,
  env: TelegramConfig,
): Promise<TelegramBot | undefined> {
  if (env.botToken !== undefined) return { token: env.botToken, apiUrl: env.apiUrl.replace(/\/+$/, '') };
  return (await resolveTelegram(ctx, env)).bot;
}
