// The Unavailability panel of a schedule page in a real browser against the real server routes, on this
// file's own database: a member marks herself away for her next shift, the shifts list shows who covers
// for her, she deletes the range again; an admin is offered everyone in the layers. The page passes
// axe-core's WCAG 2.1 A/AA rules with the panel filled in.
import { createTestUser, type TestUser } from '@firebreak/runtime/testing';
import { bodyOf } from '@firebreak/testing';
import type { Browser, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { expectNoAxeViolations } from './support/axe';
import { laptop, launchBrowser, logIn, screenshot } from './support/browser';
import { startWebTestServer, type WebTestServer } from './support/web-server';

const SCHEDULE = 'Payments primary';

let server: WebTestServer;
let browser: Browser;
let page: Page;
let bea: TestUser;
let scheduleId = '';

const json = async (method: string, path: string, body?: unknown) => {
  const response = await server.api(method, path, body);
  expect(response.ok, `${method} ${path} answered ${response.status}`).toBe(true);
  return bodyOf(response);
};

/** A `datetime-local` value in UTC, the zone the browser contexts here run in. */
const localInput = (iso: string) => iso.slice(0, 16);

beforeAll(async () => {
  server = await startWebTestServer();
  bea = await createTestUser(server.runtime, 'member', 'Bea Backup');
  // A daily rotation of Ada and Bea that started two days ago: both have shifts in the next two weeks.
  const started = new Date(Date.now() - 2 * 86_400_000).toISOString().slice(0, 10);
  const schedule = await json('POST', '/api/v1/schedules', {
    name: SCHEDULE,
    timezone: 'UTC',
    layers: [
      {
        name: 'Daily',
        rotation_start: `${started}T09:00`,
        shift_duration_seconds: 86_400,
        participants: [{ user_id: server.admin.id }, { user_id: bea.id }],
      },
    ],
  });
  scheduleId = schedule.id;
  browser = await launchBrowser();
  page = await (await browser.newContext({ ...laptop, timezoneId: 'UTC' })).newPage();
  page.on('dialog', (dialog) => dialog.accept());
  page.setDefaultTimeout(10_000);
  await logIn(page, server.url, bea.email, bea.password);
});
afterAll(async () => {
  await browser?.close();
  await server?.close();
});

describe('the Unavailability panel', () => {
  it('lets a member mark herself away; the shifts show who covers; she deletes it again', async () => {
    // Bea's next whole shift, which has not started yet.
    const from = new Date(Date.now() + 60_000).toISOString();
    const to = new Date(Date.now() + 5 * 86_400_000).toISOString();
    const { shifts } = await json('GET', `/api/v1/users/${bea.id}/shifts?from=${from}&to=${to}`);
    const next = shifts.find((s: { starts_at: string }) => s.starts_at > from);
    expect(next).toBeDefined();

    await page.goto(`${server.url}/schedules/${scheduleId}`);
    const panel = page.getByRole('region', { name: 'Unavailability' });
    await panel.getByText('Nobody is unavailable in the next 90 days.').waitFor();
    const form = panel.getByRole('form', { name: 'Mark unavailable' });
    // A member marks only herself: no picker.
    expect(await form.getByLabel('Who').count()).toBe(0);
    await form.getByLabel(/^From/).fill(localInput(next.starts_at));
    await form.getByLabel('Until').fill(localInput(next.ends_at));
    await form.getByRole('button', { name: 'Mark me unavailable' }).click();
    await expect
      .poll(() => panel.getByRole('status').filter({ hasText: 'Bea Backup is unavailable from' }).count())
      .toBe(1);

    const table = panel.getByRole('table', { name: `Unavailability in ${SCHEDULE}` });
    await table.getByRole('cell', { name: 'Bea Backup', exact: true }).waitFor();
    const shiftsTable = page.getByRole('table', { name: `Final shifts of ${SCHEDULE}` });
    const covered = shiftsTable
      .getByRole('row')
      .filter({ has: page.getByText('covers for Bea Backup (unavailable)') });
    await covered.first().waitFor();
    expect(await covered.count()).toBe(1);
    expect(await covered.getByRole('cell').first().textContent()).toBe('Ada Admin');
    const stored = await json('GET', `/api/v1/schedules/${scheduleId}/unavailability?from=${from}&to=${to}`);
    expect(stored.unavailability).toEqual([
      expect.objectContaining({
        user: { id: bea.id, name: 'Bea Backup' },
        starts_at: next.starts_at,
        ends_at: next.ends_at,
        created_by: bea.id,
      }),
    ]);
    await screenshot(page, 'schedule-unavailability');
    await expectNoAxeViolations(page, 'a schedule page with unavailability');

    await table.getByRole('button', { name: /^Delete the unavailability of Bea Backup/ }).click();
    await panel.getByText('Nobody is unavailable in the next 90 days.').waitFor();
    await expect.poll(() => covered.count()).toBe(0);
    const after = await json('GET', `/api/v1/schedules/${scheduleId}/unavailability?from=${from}&to=${to}`);
    expect(after.unavailability).toEqual([]);
  });

  it('offers an admin everyone who takes part in a layer', async () => {
    const context = await browser.newContext({ ...laptop, timezoneId: 'UTC' });
    const admin = await context.newPage();
    admin.setDefaultTimeout(10_000);
    await logIn(admin, server.url, server.admin.email, server.admin.password);
    await admin.goto(`${server.url}/schedules/${scheduleId}`);
    const form = admin.getByRole('form', { name: 'Mark unavailable' });
    const who = form.getByLabel('Who');
    await who.waitFor();
    expect(await who.locator('option').allTextContents()).toEqual(['Choose…', 'Ada Admin', 'Bea Backup']);
    // The API's refusal shows next to the form: a range already over.
    await who.selectOption({ label: 'Bea Backup' });
    await form.getByLabel(/^From/).fill('2020-01-01T09:00');
    await form.getByLabel('Until').fill('2020-01-02T09:00');
    await form.getByRole('button', { name: 'Mark unavailable' }).click();
    await form.getByRole('alert').filter({ hasText: 'The unavailability was not saved' }).waitFor();
    expect(await form.getByRole('alert').textContent()).toContain('the range is over');
    // The card's bar is drawn from the layers alone, and says so.
    await admin.getByText('Rotation (before overrides and unavailability)').waitFor();
    // Bea away for two hours, Ada covers: no warning. Ada away too: nobody is on call, and the panel says so.
    const start = new Date(Math.ceil(Date.now() / 86_400_000) * 86_400_000 + 10 * 86_400_000);
    const end = new Date(start.getTime() + 2 * 3_600_000);
    const panel = admin.getByRole('region', { name: 'Unavailability' });
    const warning = panel.getByRole('alert').filter({ hasText: 'Nobody is on call' });
    for (const name of ['Bea Backup', 'Ada Admin']) {
      await who.selectOption({ label: name });
      await form.getByLabel(/^From/).fill(localInput(start.toISOString()));
      await form.getByLabel('Until').fill(localInput(end.toISOString()));
      await form.getByRole('button', { name: 'Mark unavailable' }).click();
      await expect
        .poll(() =>
          panel
            .getByRole('status')
            .filter({ hasText: `${name} is unavailable from` })
            .count(),
        )
        .toBe(1);
      expect(await warning.count()).toBe(name === 'Ada Admin' ? 1 : 0);
    }
    expect(await warning.textContent()).toContain(`Nobody is on call in ${SCHEDULE}`);
    await context.close();
  });
});
