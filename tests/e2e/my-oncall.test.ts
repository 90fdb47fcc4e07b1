// A member's own on-call in a real browser against the real server routes, on this file's own database:
// covering someone's shift from a schedule's page (and deleting that override again), then the My
// on-call page — their shifts, the calendar link (which serves a calendar until revoked), the
// notification rules editor (the API's refusal shown, an ordered list saved and read back after a
// reload) and the shift-notice switch. Each screen passes axe-core's WCAG 2.1 A/AA rules.
import { createTestUser, type TestUser } from '@firebreak/runtime/testing';
import { bodyOf, getFreePort, startTestSmtpServer, type TestSmtpServer } from '@firebreak/testing';
import type { Browser, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { expectNoAxeViolations } from './support/axe';
import { laptop, launchBrowser, logIn, phone, screenshot } from './support/browser';
import { startWebTestServer, type WebTestServer } from './support/web-server';

const SCHEDULE = 'Payments primary';

let server: WebTestServer;
let smtp: TestSmtpServer;
let browser: Browser;
let page: Page;
let bea: TestUser;
let scheduleId = '';

const json = async (method: string, path: string, body?: unknown) => {
  const response = await server.api(method, path, body);
  expect(response.ok, `${method} ${path} answered ${response.status}`).toBe(true);
  return bodyOf(response);
};

beforeAll(async () => {
  // E-mail is configured, so it is a method this server offers; nothing in this file waits for a mail.
  smtp = await startTestSmtpServer();
  // Paging by e-mail needs PUBLIC_URL (every page's links start with it): this server's own address.
  const port = await getFreePort();
  server = await startWebTestServer({
    env: { SMTP_URL: smtp.url, PORT: String(port), PUBLIC_URL: `http://127.0.0.1:${port}` },
  });
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
  page = await (await browser.newContext(laptop)).newPage();
  page.on('dialog', (dialog) => dialog.accept());
  // A step that cannot happen fails on its own locator, well inside the test's time, naming it.
  page.setDefaultTimeout(10_000);
  await logIn(page, server.url, bea.email, bea.password);
});
afterAll(async () => {
  await browser?.close();
  await server?.close();
  await smtp?.close();
});

describe('covering a shift', () => {
  it("lets a member take someone else's shift, and delete that override again", async () => {
    await page.goto(`${server.url}/schedules`);
    await page.getByRole('link', { name: SCHEDULE }).click();
    await page.getByRole('heading', { level: 1, name: SCHEDULE }).waitFor();
    const shifts = page.getByRole('table', { name: `Final shifts of ${SCHEDULE}` });
    // Her second shift, which has not started: covering a running one starts the override at the
    // click, so its row would no longer show the times read here.
    const row = shifts
      .getByRole('row')
      .filter({ has: page.getByRole('button', { name: /^Cover Ada Admin from / }) })
      .nth(1);
    const cover = row.getByRole('button', { name: /^Cover Ada Admin from / });
    await cover.waitFor();
    // Only the API key of Ada would see "Yours" on her rows; Bea sees hers.
    await shifts.getByText('Yours').first().waitFor();
    await expectNoAxeViolations(page, 'a schedule page with shifts to cover');
    const [until] = await row
      .locator('td')
      .evaluateAll((cells) => cells.slice(2, 3).map((cell) => cell.textContent));
    await cover.click();
    await expect.poll(() => page.getByRole('status').filter({ hasText: 'You cover' }).count()).toBe(1);

    const overrides = page.getByRole('table', { name: `Overrides of ${SCHEDULE}` });
    await overrides.getByRole('cell', { name: 'Bea Backup', exact: true }).waitFor();
    const window = `from=${new Date(Date.now() - 86_400_000).toISOString()}&to=${new Date(Date.now() + 15 * 86_400_000).toISOString()}`;
    const made = await json('GET', `/api/v1/schedules/${scheduleId}/overrides?${window}`);
    expect(made.overrides).toHaveLength(1);
    expect(made.overrides[0]).toMatchObject({
      user: { id: bea.id, name: 'Bea Backup' },
      replaces_user_id: server.admin.id,
      created_by: bea.id,
    });
    // The covered span is now Bea's, shown as an override (the only one), ending where Ada's did.
    const covered = shifts
      .getByRole('row')
      .filter({ has: page.getByRole('cell', { name: 'Override', exact: true }) });
    await covered.first().waitFor();
    expect(await covered.count()).toBe(1);
    expect(await covered.getByRole('cell').first().textContent()).toBe('Bea Backup');
    expect(await covered.textContent()).toContain(until!);
    expect(new Date(made.overrides[0].starts_at).getTime()).toBeGreaterThan(Date.now());
    await screenshot(page, 'schedule-cover-shift');
    await expectNoAxeViolations(page, 'a schedule page with an override');

    await overrides.getByRole('button', { name: /^Delete the override of Bea Backup/ }).click();
    await page.getByText('No overrides.').waitFor();
    expect((await json('GET', `/api/v1/schedules/${scheduleId}/overrides?${window}`)).overrides).toEqual([]);
  });
});

describe('the My on-call page', () => {
  it('is in the navigation and lists my next shifts', async () => {
    await page.getByRole('navigation', { name: 'Main' }).getByRole('link', { name: 'My on-call' }).click();
    await page.getByRole('heading', { level: 1, name: 'My on-call' }).waitFor();
    const mine = page.getByRole('table', { name: 'My next shifts' });
    await mine.getByRole('cell', { name: SCHEDULE }).first().waitFor();
    const { shifts } = await json('GET', `/api/v1/users/${bea.id}/shifts`);
    expect(await mine.locator('tbody tr').count()).toBe(shifts.length);
  });

  it('makes a calendar link that serves my shifts until I revoke it', async () => {
    await page.getByRole('button', { name: 'Get a calendar link' }).click();
    const field = page.getByLabel(/^Your calendar link/);
    await field.waitFor();
    const url = await field.inputValue();
    const feed = await fetch(url);
    expect(feed.status).toBe(200);
    expect(feed.headers.get('content-type')).toContain('text/calendar');
    expect(await feed.text()).toContain('BEGIN:VEVENT');
    await expectNoAxeViolations(page, 'the My on-call page with a calendar link');

    await page.getByRole('button', { name: 'Revoke link' }).click();
    await page.getByText('Your calendar link is revoked').waitFor();
    expect((await fetch(url)).status).toBe(404);
  });

  it('adds an e-mail address, shows a wrong code refused, and offers the test once it is verified', async () => {
    const contacts = page.getByRole('form', { name: 'Add a contact method' });
    await contacts.getByLabel('Kind').selectOption('email');
    await contacts.getByLabel(/^Address/).fill('bea.pager@example.test');
    await contacts.getByRole('button', { name: 'Add contact' }).click();
    const list = page.getByRole('list', { name: 'My contact methods' });
    const entry = list.getByRole('listitem').filter({ hasText: 'bea.pager@example.test' });
    await entry.getByText('Not verified').waitFor();
    await entry.getByRole('button', { name: 'Send code to E-mail bea.pager@example.test' }).click();
    await entry.getByText('A code is on its way').waitFor();
    await entry.getByLabel(/^Code for/).fill('000000');
    await entry.getByRole('button', { name: 'Verify' }).click();
    await expect.poll(() => entry.getByRole('alert').count()).toBe(1);
    await expectNoAxeViolations(page, 'the contact methods with a refused code');

    // The code's e-mail is sent by the worker, which this server does not run, and its checking is
    // the paging tests' subject: here the address is marked verified as if the right code was typed.
    const marked = await server.runtime.sql`
      update contact_methods set verified_at = now() where address = 'bea.pager@example.test' returning id`;
    expect(marked).toHaveLength(1);
    await page.reload();
    await entry.getByText('Verified', { exact: true }).waitFor();
    await entry.getByRole('button', { name: 'Test E-mail bea.pager@example.test' }).waitFor();
  });

  it('edits the notification rules: shows a refusal, saves an ordered list, reads it back', async () => {
    await page.reload();
    const rules = page.getByRole('list', { name: 'My notification rules' });
    // No rules of her own yet: the default, a chat message at once, is shown.
    await expect.poll(() => page.getByLabel('Rule 1: method').inputValue()).toBe('chat');
    await page.getByText('You have set no rules, so this default applies.').waitFor();
    await page.getByRole('button', { name: 'Add rule' }).click();
    await page.getByRole('button', { name: 'Save rules' }).click();
    // Bea has no chat user yet, so a chat rule cannot reach her: the API says so, and nothing is saved.
    const refusal = page.getByRole('alert').filter({ hasText: 'Your rules were not saved' });
    await expect.poll(() => refusal.count()).toBe(1);
    expect(await refusal.textContent()).toContain('chat id');
    expect((await json('GET', `/api/v1/users/${bea.id}/notification-rules`)).default).toBe(true);
    // The admin sets her chat user, as on the Users page; the edited list is still on her screen.
    await json('PATCH', `/api/v1/users/${bea.id}`, { slack_user_id: 'U024BE7LH' });

    await page.getByLabel('Rule 2: method').selectOption('email');
    await page.getByLabel('Rule 2: after minutes').fill('10');
    await page.getByRole('button', { name: 'Add rule' }).click();
    await page.getByLabel('Rule 3: method').selectOption('email');
    await page.getByLabel('Rule 3: after minutes').fill('3');
    await page.getByLabel('Rule 3: contact').selectOption({ label: 'bea.pager@example.test' });
    await rules.getByRole('button', { name: 'Move rule 3 up' }).click();
    await expectNoAxeViolations(page, 'the notification rules editor');
    await page.getByRole('button', { name: 'Save rules' }).click();
    await page.getByText('Your notification rules are saved.').waitFor();

    const saved = await json('GET', `/api/v1/users/${bea.id}/notification-rules`);
    expect(saved.default).toBe(false);
    const [address] = await server.runtime.sql`
      select id from contact_methods where address = 'bea.pager@example.test'`;
    expect(saved.rules).toEqual([
      { method: 'chat', delay_minutes: 0, contact_method_id: null },
      { method: 'email', delay_minutes: 3, contact_method_id: address!.id },
      { method: 'email', delay_minutes: 10, contact_method_id: null },
    ]);
    await page.reload();
    await expect.poll(() => page.getByLabel('Rule 2: after minutes').inputValue()).toBe('3');
    expect(await page.getByLabel('Rule 3: after minutes').inputValue()).toBe('10');
    await screenshot(page, 'my-oncall');

    // Rules that can no longer reach her (her only rule's address is not verified any more) are
    // flagged, because her pages then fall back to a chat message.
    const warning = page.getByRole('status').filter({ hasText: 'None of your rules can reach you' });
    expect(await warning.count()).toBe(0);
    await json('PUT', `/api/v1/users/${bea.id}/notification-rules`, {
      rules: [{ method: 'email', delay_minutes: 0 }],
    });
    await server.runtime.sql`
      update contact_methods set verified_at = null where address = 'bea.pager@example.test'`;
    await page.reload();
    await warning.waitFor();
    await server.runtime.sql`
      update contact_methods set verified_at = now() where address = 'bea.pager@example.test'`;
  });

  it('turns shift notices off and on', async () => {
    const toggle = page.getByLabel('Send me a chat message when my shift starts');
    expect(await toggle.isChecked()).toBe(true);
    await toggle.uncheck();
    await expect.poll(async () => (await json('GET', `/api/v1/users/${bea.id}`)).shift_notices).toBe(false);
    await expect.poll(() => toggle.isChecked()).toBe(false);
    await toggle.check();
    await expect.poll(async () => (await json('GET', `/api/v1/users/${bea.id}`)).shift_notices).toBe(true);
  });
});

describe('a viewer', () => {
  it('reads schedules and policies but is offered no editor and no Cover', async () => {
    const viewer = await createTestUser(server.runtime, 'viewer', 'Vic Viewer');
    const context = await browser.newContext(laptop);
    const other = await context.newPage();
    other.setDefaultTimeout(10_000);
    await logIn(other, server.url, viewer.email, viewer.password);
    await other.goto(`${server.url}/schedules/${scheduleId}`);
    const shifts = other.getByRole('table', { name: `Final shifts of ${SCHEDULE}` });
    await shifts.getByRole('row').nth(1).waitFor();
    expect(await shifts.getByRole('columnheader', { name: 'Cover' }).count()).toBe(0);
    expect(await other.getByRole('button', { name: 'Edit schedule' }).count()).toBe(0);
    await other.goto(`${server.url}/schedules`);
    await other.getByRole('link', { name: SCHEDULE }).waitFor();
    expect(await other.getByRole('button', { name: 'New schedule' }).count()).toBe(0);
    await other.goto(`${server.url}/users`);
    await other.getByRole('cell', { name: 'Vic Viewer' }).waitFor();
    expect(await other.getByRole('button', { name: /^Edit / }).count()).toBe(0);
    await context.close();
  });
});

describe.each([
  ['dark', { ...laptop, colorScheme: 'dark' as const }],
  ['phone', phone],
])('the new pages in the %s view pass axe (WCAG 2.1 A/AA)', (view, options) => {
  it('on a schedule page and on My on-call', async () => {
    const context = await browser.newContext({
      ...options,
      storageState: await page.context().storageState(),
    });
    const other = await context.newPage();
    await other.goto(`${server.url}/schedules/${scheduleId}`);
    await other
      .getByRole('table', { name: `Final shifts of ${SCHEDULE}` })
      .getByRole('row')
      .nth(1)
      .waitFor();
    await expectNoAxeViolations(other, `a schedule page (${view})`);
    await other.goto(`${server.url}/my-oncall`);
    await other.getByRole('list', { name: 'My contact methods' }).waitFor();
    await expectNoAxeViolations(other, `My on-call (${view})`);
    await context.close();
  });
});
