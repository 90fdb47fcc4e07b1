import { answer, defineOperation, errorAnswers, jsonBody } from '@firebreak/http';
import { TelegramSettingsInput, TelegramSettingsView, TelegramTestResult } from '@firebreak/schema';

const path = '/api/v1/settings/telegram';

/** Settings → Telegram (docs/telegram.md, docs/api.md#telegram): the token goes in, never out. */
export const telegramOperations = {
  view: defineOperation({
    method: 'get',
    path,
    access: 'admin',
    summary: 'Telegram: whether a bot token is set, the feed chat, where each comes from, the feed’s state',
    responses: { 200: answer('The Telegram settings', TelegramSettingsView), ...errorAnswers(403) },
  }),
  update: defineOperation({
    method: 'put',
    path,
    access: 'admin',
    summary:
      'Set or remove the bot token and the feed chat (null removes; the environment wins: 409; a token needs PUBLIC_URL: 409)',
    request: { body: jsonBody(TelegramSettingsInput) },
    responses: {
      200: answer('The Telegram settings', TelegramSettingsView),
      ...errorAnswers(400, 403, 409, 415),
    },
  }),
  test: defineOperation({
    method: 'post',
    path: `${path}/test`,
    access: 'admin',
    summary: 'Check the bot token (`getMe`) and send a test message to the feed chat, now',
    responses: { 200: answer('What Telegram answered', TelegramTestResult), ...errorAnswers(403, 409) },
  }),
};
