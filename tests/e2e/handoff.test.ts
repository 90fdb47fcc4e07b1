// The Shift hand-off page in a real browser against the real server routes: without an AI provider it
// says AI is off and offers no request that could only fail; with the fake AI provider and a worker it
// requests a digest of the chosen window, waits while it is written and shows it formatted (its raw HTML
// dropped), and a reload of the page's address shows the same digest; a request answered after the
// person left the page does not change the address of the page they went to. Each screen passes
// axe-core's WCAG 2.1 A/AA rules.
import { bodyOf, type FakeAiProvider, startFakeAiProvider } from '@firebreak/testing';
import { type RunningWorker, startWorker } from '@firebreak/worker';
import type { Browser, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { expectNoAxeViolations } from './support/axe';
import { laptop, launchBrowser, logIn, screenshot } from './support/browser';
import { startWebTestServer, type WebTestServer } from './support/web-server';

const AI_KEY = 'handoff-e2e-ai-key';
const DIGEST = [
  '## Still open',
  '',
  '- **#1 Checkout errors**: rolled back, error rate falling; watch the payment queue.',
  '',
  '## Resolved',
  '',
  '- Nothing else this shift.',
  '',
  '<img src="x" onerror="window.pwned = true">',
].join('\n');

let browser: Browser;

beforeAll(async () => {
  browser = await launchBrowser();
});
afterAll(async () => {
  await browser?.close();
});

async function openPage(server: WebTestServer): Promise<Page> {
  const page = await (await browser.newContext(laptop)).newPage();
  page.setDefaultTimeout(10_000);
  await logIn(page, server.url, server.admin.email, server.admin.password);
  await page.getByRole('navigation', { name: 'Main' }).getByText('Follow-up').click();
  await page.getByRole('navigation', { name: 'Main' }).getByRole('link', { name: 'Shift hand-off' }).click();
  await page.getByRole('heading', { level: 1, name: 'Shift hand-off' }).waitFor();
  return page;
}

describe('without an AI provider', () => {
  let server: WebTestServer;
  beforeAll(async () => {
    server = await startWebTestServer();
  });
  afterAll(async () => {
    await server?.close();
  });

  it('says AI is off and does not offer the request', async () => {
    const page = await openPage(server);
    await page.getByRole('alert').filter({ hasText: 'AI is off for this installation' }).waitFor();
    expect(await page.getByRole('button', { name: 'Write the digest' }).isDisabled()).toBe(true);
    // What the page says is what the API answers.
    const refused = await server.api('POST', '/api/v1/handoff-digests', {});
    expect(refused.status).toBe(409);
    expect((await bodyOf(refused)).error.code).toBe('ai_not_configured');
    await expectNoAxeViolations(page, 'the hand-off page with AI off');
  });
});

describe('with an AI provider', () => {
  let server: WebTestServer;
  let fake: FakeAiProvider;
  let worker: RunningWorker;
  beforeAll(async () => {
    // Slow enough that the page shows the digest being written before it shows the digest.
    fake = await startFakeAiProvider({ apiKey: AI_KEY, responder: () => DIGEST, latencyMs: 1500 });
    server = await startWebTestServer({
      env: {
        AI_PROVIDER: 'anthropic',
        AI_BASE_URL: fake.anthropicBaseUrl,
        AI_API_KEY: AI_KEY,
        AI_MODEL: 'handoff-e2e-model',
      },
    });
    worker = await startWorker(server.runtime.ctx, {
      redis: server.runtime.redisConfig,
      ai: server.runtime.config.ai,
      intervalMs: 200,
    });
    const incident = await bodyOf(
      await server.api('POST', '/api/v1/incidents', { title: 'Checkout errors', severity: 'critical' }),
    );
    await server.api('POST', `/api/v1/incidents/${incident.id}/notes`, { text: 'Rolled back deploy 412' });
  });
  afterAll(async () => {
    await worker?.stop();
    await server?.close();
    await fake?.close();
  });

  it('refuses a window that ends before it starts, without asking the API', async () => {
    const page = await openPage(server);
    const form = page.getByRole('form', { name: 'Hand-off window' });
    const start = await form.getByLabel('Start').inputValue();
    const end = await form.getByLabel('End').inputValue();
    // The default window is the last 12 hours.
    expect(Date.parse(end) - Date.parse(start)).toBe(12 * 3_600_000);
    await form.getByLabel('Start').fill(end);
    await form.getByLabel('End').fill(start);
    await form.getByRole('button', { name: 'Write the digest' }).click();
    await form.getByRole('alert').filter({ hasText: 'The start must be before the end.' }).waitFor();
    expect(fake.requests).toHaveLength(0);
    await page.close();
  });

  it('requests a digest of the window, shows it being written, then shows it formatted', async () => {
    const page = await openPage(server);
    const form = page.getByRole('form', { name: 'Hand-off window' });
    const since = new Date(Date.now() - 3 * 3_600_000);
    const local = (d: Date) =>
      new Date(d.getTime() - d.getTimezoneOffset() * 60_000).toISOString().slice(0, 16);
    await form.getByLabel('Start').fill(local(since));
    await form.getByRole('button', { name: 'Write the digest' }).click();

    await page.getByRole('status').filter({ hasText: 'The AI is writing the digest' }).waitFor();
    const digest = page.getByRole('region', { name: 'Digest', exact: true });
    await digest.getByRole('heading', { level: 2, name: 'Still open' }).waitFor({ timeout: 20_000 });
    expect(await digest.locator('strong').first().textContent()).toBe('#1 Checkout errors');
    expect(await digest.locator('img').count()).toBe(0);
    expect(await page.evaluate('window.pwned')).toBeUndefined();

    const id = new URL(page.url()).searchParams.get('digest');
    expect(id).toBeTruthy();
    const stored = await bodyOf(await server.api('GET', `/api/v1/handoff-digests/${id}`));
    expect(stored).toMatchObject({ status: 'done', content: DIGEST });
    // The window asked for, to the minute the inputs hold.
    expect(Math.abs(Date.parse(stored.since) - since.getTime())).toBeLessThan(60_000);
    await expectNoAxeViolations(page, 'the hand-off page with a digest');
    await screenshot(page, 'handoff-digest');

    await page.reload();
    await digest.getByRole('heading', { level: 2, name: 'Resolved' }).waitFor();
    await page.close();
  });

  it('leaves the page the person went to alone when a request they left answers', async () => {
    const page = await openPage(server);
    const form = page.getByRole('form', { name: 'Hand-off window' });
    // The request waits at the network until the person has gone to another page.
    let release = () => {};
    const held = new Promise<void>((resolve) => {
      release = resolve;
    });
    let sent = () => {};
    const reachedServer = new Promise<void>((resolve) => {
      sent = resolve;
    });
    await page.route('**/api/v1/handoff-digests', async (route) => {
      if (route.request().method() !== 'POST') return route.fallback();
      sent();
      await held;
      await route.continue();
    });
    await form.getByRole('button', { name: 'Write the digest' }).click();
    await reachedServer;
    await page.getByRole('navigation', { name: 'Main' }).getByRole('link', { name: 'Incidents' }).click();
    await page.getByRole('heading', { level: 1, name: 'Incidents' }).waitFor();
    const answered = page.waitForResponse(
      (response) =>
        response.url().endsWith('/api/v1/handoff-digests') && response.request().method() === 'POST',
    );
    release();
    expect((await answered).status()).toBe(202);
    // What the page does with the answer happens in the moments after it arrives.
    await page.evaluate(() => new Promise((resolve) => setTimeout(resolve, 500)));
    const url = new URL(page.url());
    expect(url.pathname).toBe('/incidents');
    expect(url.searchParams.get('digest')).toBeNull();
    await page.close();
  });
});
