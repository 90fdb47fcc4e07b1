import { settings, telegram } from '@firebreak/db';
import { AppError, type TelegramSettingsInput } from '@firebreak/schema';
import type { ChangeOrigin } from '../audit';
import type { ServiceContext } from '../context';
import { auditedSettingsWrite } from '../settings/audited-write';
import type { TelegramConfig } from './resolve-config';

const keys = telegram.telegramSettingKeys;

/**
 * `PUT /api/v1/settings/telegram` (admin). Stored as given, like the webhook secrets: the bot needs the
 * token itself. Audited with the token redacted (its key ends in `token`). A value the environment sets
 * cannot be changed here: 409, nothing written, so the console never shows a value that is not in effect.
 * Nor is a token saved while PUBLIC_URL is unset: every page and feed message links to the incident,
 * and those links would point at this machine's localhost (the environment's token is refused at start
 * for the same reason).
 */
export async function updateTelegramSettings(
  ctx: ServiceContext,
  env: TelegramConfig,
  input: TelegramSettingsInput,
  origin: ChangeOrigin,
  publicUrl: string | undefined,
): Promise<void> {
  if (input.bot_token !== undefined && env.botToken !== undefined) pinned('TELEGRAM_BOT_TOKEN');
  if (typeof input.bot_token === 'string' && !publicUrl) {
    throw new AppError(
      'conflict',
      "Set PUBLIC_URL first: Telegram messages link to the incident, and without it the links would point at this server's localhost.",
    );
  }
  if (input.feed_chat_id !== undefined && env.chatId !== undefined) pinned('TELEGRAM_CHAT_ID');
  const writes: Array<[string, string | null]> = [];
  if (input.bot_token !== undefined) writes.push([keys.botToken, input.bot_token]);
  if (input.feed_chat_id !== undefined) writes.push([keys.feedChatId, input.feed_chat_id]);
  await ctx.sql.begin((tx) =>
    auditedSettingsWrite(
      tx,
      ctx,
      origin,
      'telegram',
      writes.map(([key]) => key),
      async () => {
        for (const [key, value] of writes) {
          if (value === null) await settings.deleteSetting(tx, key);
          else await settings.putSetting(tx, key, value);
        }
      },
    ),
  );
  ctx.logger.info({ changed: writes.map(([key]) => key) }, 'telegram settings changed');
}

function pinned(variable: string): never {
  throw new AppError('conflict', `${variable} is set in the environment, which wins over Settings.`);
}
