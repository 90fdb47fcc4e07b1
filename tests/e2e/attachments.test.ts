// Incident attachments in a real browser against the real server routes (docs/attachments.md): attach a
// file on the incident page and see it listed and on the timeline, download it through its link and get
// the same bytes, be told before sending a file over 10 MiB, see what a viewer may do, and delete the
// file. The card passes axe-core's WCAG 2.1 A/AA rules.
import { readFile } from 'node:fs/promises';
import { createTestUser, type TestUser } from '@firebreak/runtime/testing';
import { bodyOf } from '@firebreak/testing';
import type { Browser, Locator, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { expectNoAxeViolations } from './support/axe';
import { laptop, launchBrowser, logIn, screenshot } from './support/browser';
import { startWebTestServer, type WebTestServer } from './support/web-server';

// A valid 1×1 PNG, named and declared as something else: the server sniffs it.
const PNG = Buffer.from(
  'iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mNkYPhfDwAChwGA60e6kgAAAABJRU5ErkJggg==',
  'base64',
);

let server: WebTestServer;
let browser: Browser;
let page: Page;
let viewer: TestUser;
let incident: { id: string; number: number };
const dialogs: string[] = [];

const json = async (method: string, path: string, body?: unknown) => {
  const response = await server.api(method, path, body);
  expect(response.ok, `${method} ${path} answered ${response.status}`).toBe(true);
  return response.status === 204 ? undefined : bodyOf(response);
};
const card = () => page.getByRole('region', { name: 'Attachments' });
const files = () => card().getByRole('list', { name: 'Attached files' });
const timeline = () => page.getByRole('list', { name: 'Timeline entries' });
const fileInput = (where: Locator) => where.getByLabel(/^File/);

beforeAll(async () => {
  server = await startWebTestServer();
  viewer = await createTestUser(server.runtime, 'viewer', 'Vic Viewer');
  incident = await json('POST', '/api/v1/incidents', { title: 'Disk full on db-2', severity: 'high' });
  browser = await launchBrowser();
  page = await (await browser.newContext({ ...laptop, acceptDownloads: true })).newPage();
  page.on('dialog', (dialog) => {
    dialogs.push(dialog.message());
    void dialog.accept();
  });
  page.setDefaultTimeout(10_000);
  await logIn(page, server.url, server.admin.email, server.admin.password);
});
afterAll(async () => {
  await browser?.close();
  await server?.close();
});

describe('attachments on the incident page', () => {
  it('uploads a file, lists it with its sniffed type, and records it on the timeline', async () => {
    await page.goto(`${server.url}/incidents/${incident.number}`);
    await card().getByText('No files attached.').waitFor();
    await fileInput(card()).setInputFiles({ name: 'df output.html', mimeType: 'text/html', buffer: PNG });
    await card().getByRole('button', { name: 'Upload' }).click();
    await card().getByRole('status').getByText('Attached df output.html.').waitFor();

    const item = files().getByRole('listitem').filter({ hasText: 'df output.html' });
    await item.waitFor();
    expect(await item.textContent()).toContain('image/png');
    expect(await item.textContent()).toContain('Ada Admin');
    expect(await item.textContent()).toContain(`${PNG.length} B`);
    await timeline().getByText(`Attached df output.html (image/png, ${PNG.length} B)`).waitFor();
    // Chosen file cleared: the button waits for the next one.
    expect(await card().getByRole('button', { name: 'Upload' }).isDisabled()).toBe(true);

    const { items } = await json('GET', `/api/v1/incidents/${incident.id}/attachments`);
    expect(items).toEqual([
      expect.objectContaining({ filename: 'df output.html', content_type: 'image/png' }),
    ]);
    await expectNoAxeViolations(page, 'the incident page with an attachment');
    await screenshot(page, 'attachments');
  });

  it('downloads the same bytes through the file’s link', async () => {
    const link = files().getByRole('link', { name: 'df output.html' });
    const [download] = await Promise.all([page.waitForEvent('download'), link.click()]);
    expect(download.suggestedFilename()).toBe('df output.html');
    const saved = await download.path();
    expect((await readFile(saved)).equals(PNG)).toBe(true);
  });

  it('says a file over 10 MiB is too large without sending it', async () => {
    let sent = 0;
    await page.route('**/attachments', async (route) => {
      if (route.request().method() === 'POST') sent += 1;
      await route.fallback();
    });
    // Ten MiB cross to the browser over the DevTools protocol: a loaded machine takes longer than the
    // default ten seconds for that.
    await fileInput(card()).setInputFiles(
      { name: 'huge.log', mimeType: 'text/plain', buffer: Buffer.alloc(10 * 1024 * 1024 + 1, 'a') },
      { timeout: 25_000 },
    );
    await card().getByRole('button', { name: 'Upload' }).click();
    await card()
      .getByRole('alert')
      .getByText(/huge\.log is larger than 10 MiB/)
      .waitFor();
    expect(sent).toBe(0);
    await page.unroute('**/attachments');
    expect(await files().getByRole('listitem').count()).toBe(1);
  });

  it('lets a viewer download but neither upload nor delete', async () => {
    const context = await browser.newContext(laptop);
    const viewerPage = await context.newPage();
    await logIn(viewerPage, server.url, viewer.email, viewer.password);
    await viewerPage.goto(`${server.url}/incidents/${incident.number}`);
    const viewerCard = viewerPage.getByRole('region', { name: 'Attachments' });
    await viewerCard.getByRole('link', { name: 'df output.html' }).waitFor();
    expect(await viewerCard.getByRole('button').count()).toBe(0);
    expect(await viewerCard.getByLabel(/^File/).count()).toBe(0);
    await context.close();
  });

  it('deletes the file after asking, and the timeline says so', async () => {
    await files().getByRole('button', { name: 'Delete df output.html' }).click();
    await card().getByText('No files attached.').waitFor();
    expect(dialogs.at(-1)).toBe('Delete df output.html? It cannot be restored.');
    await timeline().getByText('Deleted the attachment df output.html').waitFor();
    const { items } = await json('GET', `/api/v1/incidents/${incident.id}/attachments`);
    expect(items).toEqual([]);
  });
});
