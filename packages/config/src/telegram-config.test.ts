import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { type ConfigError, loadConfig } from './config';

// Holds the secret files these tests write; removed when they are done.
const dir = mkdtempSync(join(tmpdir(), 'firebreak-config-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

const TOKEN = '123456:AAconfig-token_for_the_config_tests_0';

describe('TELEGRAM_*', () => {
  it('defaults to the public Bot API and nothing set', () => {
    expect(loadConfig({}).telegram).toEqual({
      botToken: undefined,
      chatId: undefined,
      apiUrl: 'https://api.telegram.org',
    });
  });

  it('takes the token from TELEGRAM_BOT_TOKEN_FILE, and a group chat id', () => {
    const file = join(dir, 'telegram');
    writeFileSync(file, `${TOKEN}\n`);
    expect(
      loadConfig({
        TELEGRAM_BOT_TOKEN_FILE: file,
        TELEGRAM_CHAT_ID: '-1001234',
        TELEGRAM_API_URL: 'http://127.0.0.1:9',
        PUBLIC_URL: 'https://firebreak.example.com',
      }).telegram,
    ).toEqual({ botToken: TOKEN, chatId: '-1001234', apiUrl: 'http://127.0.0.1:9' });
  });

  it('refuses a chat id that is not an integer, without echoing values', () => {
    try {
      loadConfig({
        TELEGRAM_CHAT_ID: '@channel',
        TELEGRAM_BOT_TOKEN: TOKEN,
        PUBLIC_URL: 'https://f.test',
      });
      expect.unreachable();
    } catch (error) {
      expect((error as ConfigError).problems).toEqual([
        'TELEGRAM_CHAT_ID: must be a Telegram chat id: an integer, negative for groups',
      ]);
    }
  });

  it('needs PUBLIC_URL with a token: a page’s links start with it', () => {
    expect(() => loadConfig({ TELEGRAM_BOT_TOKEN: TOKEN })).toThrow(
      "PUBLIC_URL: is required when TELEGRAM_BOT_TOKEN is set: every page's links start with it",
    );
  });

  it("refuses a token that is not BotFather's shape, a `/` above all (it goes into the URL path)", () => {
    for (const token of [`${TOKEN}/../getUpdates`, '1:secret', 'no-colon-token_for_the_config_tests_00']) {
      try {
        loadConfig({ TELEGRAM_BOT_TOKEN: token, PUBLIC_URL: 'https://f.test' });
        expect.unreachable();
      } catch (error) {
        expect((error as ConfigError).problems).toEqual([
          'TELEGRAM_BOT_TOKEN: must be a bot token as BotFather gives it: 123456:ABC-DEF…',
        ]);
      }
    }
  });
});
