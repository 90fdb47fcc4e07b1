// Telegram in a real browser (docs/telegram.md): an admin saves the bot token in Settings → Telegram
// (write-only: never shown again), sends a test message to the feed chat through the fake Bot API, and
// a member adds their Telegram chat as a contact method and verifies it with the code the bot sent
// (the worker runs beside the routes, as in `pnpm start`).
import { createTestUser, type TestUser } from '@firebreak/runtime/testing';
import { type FakeTelegram, getFreePort, startFakeTelegram } from '@firebreak/testing';
import { type RunningWorker, startWorker } from '@firebreak/worker';
import type { Browser, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { expectNoAxeViolations } from './support/axe';
import { laptop, launchBrowser, logIn } from './support/browser';
import { startWebTestServer, type WebTestServer } from './support/web-server';

const TOKEN = '246810:AAE2E-fake_token_for_browser_tests_1';
let server: WebTestServer;
let fake: FakeTelegram;
let browser: Browser;
let page: Page;
let member: TestUser;
let worker: RunningWorker;

beforeAll(async () => {
  fake = await startFakeTelegram({ token: TOKEN, chats: ['-100777', '5550777'], username: 'fb_e2e_bot' });
  const port = await getFreePort();
  server = await startWebTestServer({
    env: { TELEGRAM_API_URL: fake.origin, PORT: String(port), PUBLIC_URL: `http://127.0.0.1:${port}` },
  });
  member = await createTestUser(server.runtime, 'member', 'Tom Telegram');
  // The worker sends the verification code (the notify queue), as `pnpm start` runs it beside the routes.
  worker = await startWorker(server.runtime.ctx, {
    redis: server.runtime.redisConfig,
    ai: server.runtime.config.ai,
    intervalMs: 200,
    paging: server.runtime.config.paging,
    telegram: server.runtime.config.telegram,
    publicUrl: server.url,
  });
  browser = await launchBrowser();
  page = await (await browser.newContext(laptop)).newPage();
  page.setDefaultTimeout(10_000);
}, 60_000);

afterAll(async () => {
  await browser?.close();
  await worker?.stop();
  await server?.close();
  await fake?.close();
});

describe('Telegram in the console', () => {
  it('lets an admin save the token write-only and send a test message', async () => {
    await logIn(page, server.url, server.admin.email, server.admin.password);
    await page.goto(`${server.url}/settings`);
    const section = page.getByRole('region', { name: 'Telegram' });
    await section.getByRole('heading', { name: 'Telegram' }).waitFor();
    await section.getByLabel(/^Bot token/).fill(TOKEN);
    await section.getByLabel(/^Feed chat id/).fill('-100777');
    await section.getByRole('button', { name: 'Save' }).click();
    await section.getByText('set', { exact: true }).waitFor();
    expect(await section.getByLabel(/^Bot token/).inputValue()).toBe('');
    expect(await page.content()).not.toContain('AAE2E');
    await section.getByRole('button', { name: 'Send a test message' }).click();
    await section.getByRole('status').filter({ hasText: 'Connected as @fb_e2e_bot' }).waitFor();
    expect(fake.messagesTo('-100777')).toHaveLength(1);
    await expectNoAxeViolations(page, 'Settings with the Telegram section');
  });

  it('lets a member add their Telegram chat and verify it with the code the bot sent', async () => {
    await page.context().clearCookies();
    await logIn(page, server.url, member.email, member.password);
    await page.goto(`${server.url}/my-oncall`);
    const contacts = page.getByRole('form', { name: 'Add a contact method' });
    await contacts.getByLabel('Kind').selectOption('telegram');
    await contacts.getByText('@userinfobot').waitFor();
    await contacts.getByLabel(/^Chat id/).fill('5550777');
    await contacts.getByRole('button', { name: 'Add contact' }).click();
    const list = page.getByRole('list', { name: 'My contact methods' });
    await list.getByText('Telegram 5550777').waitFor();
    await list.getByRole('button', { name: /send.*code/i }).click();
    await expect.poll(() => fake.messagesTo('5550777').length, { timeout: 10_000 }).toBe(1);
    const code = /\d{6}/.exec(fake.messagesTo('5550777')[0]!.text)![0];
    await list.getByLabel(/^Code for/).fill(code);
    await list.getByRole('button', { name: /^Verify/ }).click();
    await expect
      .poll(async () => (await server.api('GET', `/api/v1/users/${member.id}/contact-methods`)).json())
      .toMatchObject({ contact_methods: [{ type: 'telegram', address: '5550777', verified: true }] });
    await expectNoAxeViolations(page, 'My on-call with a Telegram contact');
  });
});
