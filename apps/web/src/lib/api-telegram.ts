// Settings → Telegram (docs/api.md#telegram); the types come from @firebreak/schema.
import type { TelegramSettingsInput, TelegramSettingsView, TelegramTestResult } from '@firebreak/schema';
import { get, post, put } from './api-client';

const path = '/api/v1/settings/telegram';

export const telegramApi = {
  view: () => get<TelegramSettingsView>(path),
  update: (input: TelegramSettingsInput) => put<TelegramSettingsView>(path, input),
  test: () => post<TelegramTestResult>(`${path}/test`),
};

export type { TelegramSettingsView, TelegramTestResult };
