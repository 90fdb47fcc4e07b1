// The Opsgenie panel of the Import page in a real browser (docs/import-opsgenie.md): a dry run of the
// fixture account served by the fake Opsgenie API, then the import, offered only after that dry run.
import { bodyOf, type FakeOpsgenieApi, opsgenieFixturesDir, startFakeOpsgenieApi } from '@firebreak/testing';
import type { Browser, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { expectNoAxeViolations } from './support/axe';
import { laptop, launchBrowser, logIn } from './support/browser';
import { startWebTestServer, type WebTestServer } from './support/web-server';

const KEY = 'opsgenie-e2e-key';
let server: WebTestServer;
let opsgenie: FakeOpsgenieApi;
let browser: Browser;
let page: Page;

beforeAll(async () => {
  server = await startWebTestServer();
  opsgenie = await startFakeOpsgenieApi({ fixturesDir: opsgenieFixturesDir, apiKey: KEY });
  browser = await launchBrowser();
  page = await (await browser.newContext(laptop)).newPage();
  await logIn(page, server.url, server.admin.email, server.admin.password);
});
afterAll(async () => {
  await browser?.close();
  await opsgenie?.close();
  await server?.close();
});

const users = async () => (await bodyOf(await server.api('GET', '/api/v1/users'))).users.length as number;

describe('the Opsgenie import panel', () => {
  it('previews with a dry run, then imports; the API integrations keep their key', async () => {
    const before = await users();
    await page.getByRole('navigation', { name: 'Main' }).getByRole('link', { name: 'Import' }).click();
    await page.getByRole('button', { name: 'Opsgenie' }).click();
    const form = page.getByRole('form', { name: 'Opsgenie import' });
    expect(await form.getByLabel(/Opsgenie API URL/).inputValue()).toBe('https://api.opsgenie.com');
    await form.getByLabel(/Opsgenie API URL/).fill(opsgenie.url);
    await form.getByLabel(/API key/).fill(KEY);
    expect(await form.getByRole('button', { name: 'Import now' }).isDisabled()).toBe(true);
    await form.getByRole('button', { name: 'Preview (dry run)' }).click();
    await page.getByText('Dry run: nothing was written.', { exact: false }).waitFor();
    const summary = page.getByRole('table', { name: 'Import summary' });
    expect(
      await summary
        .getByRole('row', { name: /^Integrations/ })
        .locator('td')
        .allTextContents(),
    ).toEqual(['Integrations', '3', '0']);
    expect(await users()).toBe(before);
    await expectNoAxeViolations(page, 'the Opsgenie import dry run');

    await form.getByRole('button', { name: 'Import now' }).click();
    await page.getByText('Import done.').waitFor();
    expect(await users()).toBe(before + 6);
    const integrations = (await bodyOf(await server.api('GET', '/api/v1/integrations'))).integrations;
    expect(integrations.filter((i: { type: string }) => i.type === 'opsgenie')).toHaveLength(3);
  });

  it('a refused key is shown in the form, and nothing is imported', async () => {
    const form = page.getByRole('form', { name: 'Opsgenie import' });
    await form.getByLabel(/API key/).fill('wrong-key');
    await form.getByRole('button', { name: 'Preview (dry run)' }).click();
    await form.getByText('Opsgenie refused the API key', { exact: false }).waitFor();
    expect(await form.getByRole('button', { name: 'Import now' }).isDisabled()).toBe(true);
  });
});
