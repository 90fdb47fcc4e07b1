// What the console shows when its stores fail (docs/api.md, "Health"). Redis down: the API
// still works and a banner says background work is delayed. PostgreSQL down: a plain, generic error,
// never a stack or a blank page. Both clear by themselves when the server is back. The servers are
// private ones started for this file; the machine's shared PostgreSQL and Redis are never touched.
import { createSql, migrate } from '@firebreak/db';
import { PrivatePostgres, PrivateRedis } from '@firebreak/testing';
import type { Browser, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { expectNoAxeViolations } from './support/axe';
import { laptop, launchBrowser, logIn, screenshot } from './support/browser';
import { startWebTestServer, type WebTestServer } from './support/web-server';

let redis: PrivateRedis;
let postgres: PrivatePostgres;
let server: WebTestServer;
let browser: Browser;
let page: Page;

beforeAll(async () => {
  [redis, postgres] = await Promise.all([PrivateRedis.start(), PrivatePostgres.start()]);
  const setup = createSql(postgres.url(), { max: 1 });
  await migrate(setup);
  await setup.end();
  server = await startWebTestServer({ redisUrl: redis.url, databaseUrl: postgres.url() });
  browser = await launchBrowser();
  page = await (await browser.newContext(laptop)).newPage();
  await logIn(page, server.url, server.admin.email, server.admin.password);
});
afterAll(async () => {
  await browser?.close();
  await server?.close();
  await Promise.all([redis?.destroy(), postgres?.destroy()]);
});

const delayed = () => page.getByRole('status').filter({ hasText: 'Background work is delayed' });
const databaseBanner = () => page.getByRole('alert').filter({ hasText: 'The database is unavailable' });

describe('the console during outages', () => {
  it('says background work is delayed while Redis is down, and keeps working', async () => {
    expect(await delayed().count()).toBe(0);
    await redis.kill();
    await delayed().waitFor({ timeout: 20_000 });
    // The API still answers: a new incident can be opened.
    await page.getByRole('button', { name: 'New Incident' }).click();
    await page.getByLabel('Title').fill('Opened while Redis is down');
    await page.getByRole('button', { name: 'Create incident' }).click();
    await page.getByRole('heading', { level: 1, name: 'Opened while Redis is down' }).waitFor();
    await screenshot(page, 'banner-redis-degraded');
    await expectNoAxeViolations(page, 'the incident page under the Redis banner');

    await redis.start();
    await delayed().waitFor({ state: 'detached', timeout: 30_000 });
  });

  it('shows a clear generic error while the database is down, and recovers without a reload', async () => {
    await postgres.stop();
    await databaseBanner().waitFor({ timeout: 20_000 });
    // A page opened now cannot load its data, and says so plainly.
    await page.getByRole('navigation', { name: 'Main' }).getByRole('link', { name: 'Alerts' }).click();
    const error = page.getByRole('alert').filter({ hasText: 'Could not load alerts' });
    // Generous: with the database stopped, the API can take ~20 s to give up on a read.
    await error.waitFor({ timeout: 60_000 });
    expect(await error.textContent()).toContain(
      'The service cannot reach its database right now. Try again shortly.',
    );
    await screenshot(page, 'error-database-down');
    await expectNoAxeViolations(page, 'the alerts page with the database down');

    // A console opened now cannot even learn who is logged in: it says why, and comes up by itself.
    const opened = await page.context().newPage();
    await opened.goto(`${server.url}/incidents`);
    await opened
      .getByText('The service cannot reach its database right now. Try again shortly.')
      .waitFor({ timeout: 60_000 });

    await postgres.start();
    await databaseBanner().waitFor({ state: 'detached', timeout: 30_000 });
    await page.getByRole('table', { name: 'Alerts' }).waitFor();
    await expect.poll(() => error.count(), { timeout: 30_000 }).toBe(0);
    await opened.getByRole('heading', { name: 'Incidents', exact: true }).waitFor({ timeout: 30_000 });
    await opened.close();
  }, 180_000);
});
