// The on-call editors in a real browser against the real server routes, on this file's own database:
// an admin builds a schedule of two layers (previewing the next two weeks before saving, and seeing
// that the preview agrees with who the server says is on call), an escalation policy with reordered
// tiers, and changes a user — and each form shows the API's refusal next to itself. Every editor,
// open, passes axe-core's WCAG 2.1 A/AA rules.
import { bodyOf } from '@firebreak/testing';
import type { Browser, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { expectNoAxeViolations } from './support/axe';
import { laptop, launchBrowser, logIn, screenshot } from './support/browser';
import { startWebTestServer, type WebTestServer } from './support/web-server';

const SCHEDULE = 'Payments primary';
const POLICY = 'Payments escalation';

let server: WebTestServer;
let browser: Browser;
let page: Page;
let scheduleId = '';

const json = async (method: string, path: string, body?: unknown) => {
  const response = await server.api(method, path, body);
  expect(response.ok, `${method} ${path} answered ${response.status}`).toBe(true);
  return bodyOf(response);
};

/** Yesterday's date (UTC) at 09:00: a rotation already running whatever the hour of the test. */
function yesterdayAtNine(): string {
  return `${new Date(Date.now() - 86_400_000).toISOString().slice(0, 10)}T09:00`;
}

beforeAll(async () => {
  server = await startWebTestServer();
  await json('POST', '/api/v1/users', { email: 'bea@example.test', name: 'Bea Backup', role: 'member' });
  await json('POST', '/api/v1/users', { email: 'cy@example.test', name: 'Cy Cover', role: 'member' });
  browser = await launchBrowser();
  page = await (await browser.newContext(laptop)).newPage();
  page.on('dialog', (dialog) => dialog.accept());
  await logIn(page, server.url, server.admin.email, server.admin.password);
});
afterAll(async () => {
  await browser?.close();
  await server?.close();
});

describe('the schedule editor', () => {
  it('builds a schedule of two layers, previews two weeks, saves it and shows it after a reload', async () => {
    await page.getByRole('navigation', { name: 'Main' }).getByRole('link', { name: 'Schedules' }).click();
    await page.getByRole('button', { name: 'New schedule' }).click();
    const form = page.getByRole('form', { name: 'New schedule' });
    await form.getByLabel('Name', { exact: true }).fill(SCHEDULE);
    await form.getByLabel(/^Time zone/).fill('Europe/Berlin');

    const first = form.getByRole('group', { name: /^Layer 1:/ });
    await first.getByLabel('Layer name').fill('Weekdays');
    await first.getByLabel(/^Rotation start/).fill(yesterdayAtNine());
    await first.getByLabel('Rotation length').selectOption('daily');
    for (const person of [`Ada Admin (${server.admin.email})`, 'Bea Backup (bea@example.test)']) {
      await first.getByLabel(/^Add a person to/).selectOption({ label: person });
      await first.getByRole('button', { name: 'Add person' }).click();
    }
    await first.getByRole('button', { name: 'Move Bea Backup up in Weekdays' }).click();
    expect(await first.getByRole('listitem').allTextContents()).toEqual([
      expect.stringContaining('Bea Backup'),
      expect.stringContaining('Ada Admin'),
    ]);

    await form.getByRole('button', { name: 'Add layer' }).click();
    const second = form.getByRole('group', { name: /^Layer 2:/ });
    await second.getByLabel('Layer name').fill('Weekend cover');
    const inThreeDays = new Date(Date.now() + 3 * 86_400_000).toISOString().slice(0, 10);
    await second.getByLabel(/^Rotation start/).fill(`${inThreeDays}T09:00`);
    await second.getByLabel('Rotation length').selectOption('custom');
    await second.getByLabel('Hours per turn').fill('12');
    await second.getByLabel(/^Add a person to/).selectOption({ label: 'Cy Cover (cy@example.test)' });
    await second.getByRole('button', { name: 'Add person' }).click();

    // The preview is drawn from the form, before anything is saved: both layers, all three people.
    const preview = form.getByRole('table', { name: 'Previewed shifts' });
    await preview.getByRole('cell', { name: 'Weekend cover' }).first().waitFor();
    const previewed = await preview.locator('tbody tr').allTextContents();
    for (const name of ['Bea Backup', 'Ada Admin', 'Cy Cover']) {
      expect(previewed.some((row) => row.includes(name))).toBe(true);
    }
    const firstInPreview = await preview.locator('tbody tr').first().locator('td').first().textContent();
    await expectNoAxeViolations(page, 'the schedule editor with a preview');
    await screenshot(page, 'schedule-editor');

    await form.getByRole('button', { name: 'Create schedule' }).click();
    await page.waitForURL(/\/schedules\/[0-9a-f-]{36}$/);
    scheduleId = page.url().split('/').pop()!;
    await page.getByRole('heading', { level: 1, name: SCHEDULE }).waitFor();
    await page.reload();
    await page.getByRole('heading', { level: 1, name: SCHEDULE }).waitFor();
    await page.getByRole('region', { name: `Schedule ${SCHEDULE}` }).waitFor();

    const saved = await json('GET', `/api/v1/schedules/${scheduleId}`);
    expect(saved.timezone).toBe('Europe/Berlin');
    expect(
      saved.layers.map(
        (l: { name: string; shift_duration_seconds: number; participants: { name: string }[] }) => [
          l.name,
          l.shift_duration_seconds,
          l.participants.map((p) => p.name),
        ],
      ),
    ).toEqual([
      ['Weekdays', 86_400, ['Bea Backup', 'Ada Admin']],
      ['Weekend cover', 43_200, ['Cy Cover']],
    ]);
    // The rotation start was typed as Berlin time, and the server read it as Berlin time.
    const berlin = new Intl.DateTimeFormat('en-GB', {
      timeZone: 'Europe/Berlin',
      hour: '2-digit',
      minute: '2-digit',
      hourCycle: 'h23',
    });
    expect(berlin.format(new Date(saved.layers[0].rotation_start))).toBe('09:00');
    // The preview's first row is who the server pages now.
    const onCall = await json('GET', `/api/v1/schedules/${scheduleId}/on-call`);
    expect(onCall.users.map((u: { name: string }) => u.name)).toEqual([firstInPreview]);
  });

  it('edits the schedule, and shows the API refusing a change next to the form', async () => {
    await page.getByRole('button', { name: 'Edit schedule' }).click();
    const form = page.getByRole('form', { name: `Edit schedule ${SCHEDULE}` });
    // Longer than the API takes; the editor leaves that rule to the API, which names the field.
    await form.getByLabel('Name', { exact: true }).fill('x'.repeat(201));
    await form.getByRole('button', { name: 'Save schedule' }).click();
    const refusal = form.getByRole('alert');
    await expect.poll(() => refusal.textContent()).toContain('The schedule was not saved');
    expect(await refusal.textContent()).toContain('name');
    await expectNoAxeViolations(page, 'the schedule editor with an error');

    await form.getByLabel('Name', { exact: true }).fill(`${SCHEDULE} (EU)`);
    await form.getByRole('button', { name: 'Remove layer: Weekend cover' }).click();
    await form.getByRole('button', { name: 'Save schedule' }).click();
    await form.waitFor({ state: 'detached' });
    await page.getByRole('heading', { level: 1, name: `${SCHEDULE} (EU)` }).waitFor();
    const saved = await json('GET', `/api/v1/schedules/${scheduleId}`);
    expect(saved.layers.map((l: { name: string }) => l.name)).toEqual(['Weekdays']);
    // Focus returns to the button that opened the editor.
    await expect.poll(() => page.evaluate('document.activeElement?.textContent')).toBe('Edit schedule');
  });
});

describe('the escalation policy editor', () => {
  it('creates a policy with reordered tiers, a repeat and disabled, then edits it', async () => {
    await page.goto(`${server.url}/escalation-policies`);
    await page.getByRole('button', { name: 'New policy' }).click();
    const form = page.getByRole('form', { name: 'New escalation policy' });
    await form.getByLabel('Name', { exact: true }).fill(POLICY);
    await form.getByLabel(/^Repeat/).fill('2');
    await form.getByLabel('Enabled').uncheck();

    const tier1 = form.getByRole('group', { name: 'Tier 1' });
    await tier1.getByLabel('Tier 1 pages').selectOption('schedule');
    await tier1.getByLabel('Schedule for Tier 1').selectOption({ label: `${SCHEDULE} (EU)` });
    await tier1.getByLabel('Minutes until the next tier').fill('5');
    await form.getByRole('button', { name: 'Add tier' }).click();
    const tier2 = form.getByRole('group', { name: 'Tier 2' });
    await tier2.getByLabel(/^Add a person to/).selectOption({ label: 'Bea Backup (bea@example.test)' });
    await tier2.getByRole('button', { name: 'Add person' }).click();
    await tier2.getByLabel('Minutes until the next tier').fill('10');
    await form.getByRole('button', { name: 'Move tier up: Tier 2' }).click();
    await expectNoAxeViolations(page, 'the escalation policy editor');

    await form.getByRole('button', { name: 'Create policy' }).click();
    const card = page.getByRole('region', { name: `Policy ${POLICY}` });
    await card.getByText('Disabled').waitFor();
    const { escalation_policies: policies } = await json('GET', '/api/v1/escalation-policies');
    const policy = policies.find((p: { name: string }) => p.name === POLICY);
    expect(policy).toMatchObject({
      enabled: false,
      repeat: 2,
      tiers: [
        { target_type: 'users', user_names: ['Bea Backup'], timeout_seconds: 600 },
        { target_type: 'schedule', schedule_id: scheduleId, timeout_seconds: 300 },
      ],
    });

    await card.getByRole('button', { name: `Edit policy ${POLICY}` }).click();
    const editor = page.getByRole('form', { name: `Edit policy ${POLICY}` });
    await editor.getByRole('button', { name: 'Remove tier: Tier 1' }).click();
    await editor.getByLabel('Enabled').check();
    await editor.getByRole('button', { name: 'Save policy' }).click();
    await editor.waitFor({ state: 'detached' });
    const changed = await json('GET', `/api/v1/escalation-policies/${policy.id}`);
    expect(changed).toMatchObject({
      enabled: true,
      tiers: [{ target_type: 'schedule', schedule_id: scheduleId }],
    });
    expect(changed.tiers).toHaveLength(1);
  });

  it('says what is missing in a tier before asking the API', async () => {
    await page.getByRole('button', { name: 'New policy' }).click();
    const form = page.getByRole('form', { name: 'New escalation policy' });
    await form.getByLabel('Name', { exact: true }).fill('Half-made');
    await form.getByRole('button', { name: 'Create policy' }).click();
    await expect
      .poll(() => form.getByRole('alert').textContent())
      .toContain('Tier 1: add at least one person');
    await form.getByRole('button', { name: 'Cancel' }).click();
    const { escalation_policies: policies } = await json('GET', '/api/v1/escalation-policies');
    expect(policies.map((p: { name: string }) => p.name)).toEqual([POLICY]);
  });
});

describe('the user editor', () => {
  it("changes someone's role, chat user, shift notices and whether they are active", async () => {
    await page.goto(`${server.url}/users`);
    await page.getByRole('button', { name: 'Edit Bea Backup' }).click();
    const form = page.getByRole('form', { name: 'Edit user Bea Backup' });
    await form.getByLabel('Role').selectOption('viewer');
    await form.getByLabel(/^Chat user id/).fill('not an id');
    await form.getByRole('button', { name: 'Save user' }).click();
    await expect.poll(() => form.getByRole('alert').textContent()).toContain('U024BE7LH');
    await form.getByLabel(/^Chat user id/).fill('U024BE7LH');
    await form.getByLabel(/^Shift notices/).uncheck();
    await expectNoAxeViolations(page, 'the user editor');
    await form.getByRole('button', { name: 'Save user' }).click();
    await form.waitFor({ state: 'detached' });
    await page.getByRole('cell', { name: 'U024BE7LH' }).waitFor();

    const { users } = await json('GET', '/api/v1/users');
    expect(users.find((u: { name: string }) => u.name === 'Bea Backup')).toMatchObject({
      role: 'viewer',
      slack_user_id: 'U024BE7LH',
      shift_notices: false,
      active: true,
    });

    await page.getByRole('button', { name: 'Edit Cy Cover' }).click();
    const cy = page.getByRole('form', { name: 'Edit user Cy Cover' });
    await cy.getByLabel(/^Active/).uncheck();
    await cy.getByRole('button', { name: 'Save user' }).click();
    await cy.waitFor({ state: 'detached' });
    const row = page.getByRole('row', { name: /Cy Cover/ });
    await row.getByText('Deactivated').waitFor();
  });

  it('shows the API refusing to demote the last admin, and changes nothing', async () => {
    await page.getByRole('button', { name: 'Edit Ada Admin' }).click();
    const form = page.getByRole('form', { name: 'Edit user Ada Admin' });
    await form.getByLabel('Role').selectOption('viewer');
    await form.getByRole('button', { name: 'Save user' }).click();
    await expect.poll(() => form.getByRole('alert').textContent()).toContain('The user was not changed');
    const { users } = await json('GET', '/api/v1/users');
    expect(users.find((u: { name: string }) => u.name === 'Ada Admin').role).toBe('admin');
  });
});
