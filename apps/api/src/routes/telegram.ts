import { changeOriginOf, type Operations } from '@firebreak/http';
import {
  getTelegramSettings,
  type TelegramConfig,
  testTelegram,
  updateTelegramSettings,
} from '@firebreak/services';
import type { ApiDeps } from '../deps';
import { telegramOperations as op } from '../operations/telegram';

/** With no `TELEGRAM_*` in the environment, Settings → Telegram alone decides. */
export const noTelegramEnv: TelegramConfig = {
  botToken: undefined,
  chatId: undefined,
  apiUrl: 'https://api.telegram.org',
};

/** Settings → Telegram (docs/telegram.md#configuration). Admins only: the view says where values come from. */
export function addTelegramRoutes(ops: Operations, deps: ApiDeps): void {
  const { ctx } = deps;
  const env = deps.config.telegram ?? noTelegramEnv;
  ops.add(op.view, async (c) => c.json(await getTelegramSettings(ctx, env)));
  ops.add(op.update, async (c, { body }) => {
    await updateTelegramSettings(ctx, env, body, changeOriginOf(c), deps.config.publicUrl);
    return c.json(await getTelegramSettings(ctx, env));
  });
  ops.add(op.test, async (c) => c.json(await testTelegram(ctx, env)));
}
