// The console's accessibility in a real browser: axe-core's WCAG 2.1 A/AA rules on every page, in the
// light and dark schemes and at phone width, with real content on each page; then the main flow done
// with the keyboard alone (skip link, open an incident from the list, acknowledge, resolve), checking
// that every element Tab reaches shows a focus indicator and that focus never gets lost.
import { bodyOf } from '@firebreak/testing';
import type { Browser, BrowserContext, BrowserContextOptions, Locator, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { expectNoAxeViolations } from './support/axe';
import { laptop, launchBrowser, logIn, phone } from './support/browser';
import { startWebTestServer, type WebTestServer } from './support/web-server';

const TITLE = 'Payment API returns 502';
const ALERT = 'Queue depth above 10k on jobs-2';
const SCHEDULE = 'Payments primary';
const POLICY = 'Payments escalation';

let server: WebTestServer;
let browser: Browser;
let signedIn: Awaited<ReturnType<BrowserContext['storageState']>>;

async function json(method: string, path: string, body?: unknown) {
  const response = await server.api(method, path, body);
  expect(response.ok, `${method} ${path} answered ${response.status}`).toBe(true);
  return bodyOf(response);
}

beforeAll(async () => {
  server = await startWebTestServer();
  // Something on every page, so axe checks tables, badges and cards rather than empty states.
  await json('POST', '/api/v1/incidents', {
    title: TITLE,
    severity: 'critical',
    description: 'From checkout.',
  });
  await json('POST', '/api/v1/webhooks/generic', {
    alerts: [{ title: ALERT, severity: 'critical', external_id: 'queue-jobs-2', labels: { host: 'jobs-2' } }],
  });
  await json('POST', '/api/v1/users', { email: 'bea@example.test', name: 'Bea Backup', role: 'member' });
  const schedule = await json('POST', '/api/v1/schedules', {
    name: SCHEDULE,
    timezone: 'Europe/Berlin',
    layers: [
      {
        name: 'Weekly',
        rotation_start: '2026-01-05T09:00',
        shift_duration_seconds: 86_400,
        participants: ['Ada Admin', 'Bea Backup'],
      },
    ],
  });
  const policy = await json('POST', '/api/v1/escalation-policies', {
    name: POLICY,
    description: 'Pages the payments team',
    repeat: 1,
    tiers: [
      { target_type: 'schedule', schedule_id: schedule.id, timeout_seconds: 300 },
      { target_type: 'users', user_names: ['Bea Backup'], timeout_seconds: 600 },
    ],
  });
  await json('PATCH', '/api/v1/settings', { default_escalation_policy_id: policy.id });
  await json('POST', '/api/v1/api-keys', { name: 'grafana', role: 'member' });
  await json('POST', '/api/v1/integrations', { name: 'Prometheus production', type: 'alertmanager' });
  await json('POST', '/api/v1/integrations', {
    name: 'Nightly backup',
    type: 'heartbeat',
    interval_seconds: 86_400,
  });
  const hour = 3_600_000;
  await json('POST', '/api/v1/maintenance-windows', {
    name: 'Database upgrade',
    starts_at: new Date(Date.now() + hour).toISOString(),
    ends_at: new Date(Date.now() + 2 * hour).toISOString(),
    match: { labels: { team: 'db' } },
  });
  await json('POST', '/api/v1/outgoing-webhooks', {
    name: 'Ticketing',
    url: 'https://tickets.example.test/hook',
    events: ['incident.created', 'incident.resolved'],
    enabled: true,
  });

  browser = await launchBrowser();
  const first = await browser.newContext(laptop);
  await logIn(await first.newPage(), server.url, server.admin.email, server.admin.password);
  signedIn = await first.storageState();
  await first.close();
});
afterAll(async () => {
  await browser?.close();
  await server?.close();
});

/** Each page, and what shows it has loaded its data (axe on a "Loading…" page proves little). */
const pages: { name: string; path: string; loaded: (page: Page) => Locator }[] = [
  { name: 'incidents list', path: '/incidents', loaded: (p) => p.getByRole('link', { name: TITLE }) },
  {
    name: 'incident page',
    path: '/incidents/1',
    loaded: (p) => p.locator('[data-entry-type="incident_created"]'),
  },
  { name: 'alerts', path: '/alerts', loaded: (p) => p.getByRole('cell', { name: ALERT }) },
  { name: 'routing rules', path: '/routing', loaded: (p) => p.getByRole('button', { name: /^Edit / }) },
  {
    name: 'schedules',
    path: '/schedules',
    loaded: (p) => p.getByTestId('on-call-now').filter({ hasNotText: '…' }),
  },
  {
    name: 'escalation policies',
    path: '/escalation-policies',
    loaded: (p) => p.getByRole('region', { name: `Policy ${POLICY}` }).getByText('Default'),
  },
  { name: 'users', path: '/users', loaded: (p) => p.getByRole('cell', { name: 'Bea Backup' }) },
  { name: 'settings', path: '/settings', loaded: (p) => p.getByRole('cell', { name: 'grafana' }) },
  {
    name: 'OnCall import',
    path: '/import',
    loaded: (p) => p.getByRole('heading', { name: 'Import from Grafana OnCall' }),
  },
  {
    name: 'integrations',
    path: '/integrations',
    loaded: (p) => p.getByText('Prometheus production').first(),
  },
  {
    name: 'maintenance windows',
    path: '/maintenance',
    loaded: (p) => p.getByText('Database upgrade').first(),
  },
  { name: 'outgoing webhooks', path: '/outgoing-webhooks', loaded: (p) => p.getByText('Ticketing').first() },
  { name: 'audit log', path: '/audit-log', loaded: (p) => p.getByText('Before and after').first() },
  { name: 'a missing page', path: '/no-such-page', loaded: (p) => p.getByText('Page not found') },
];

const views: [string, BrowserContextOptions][] = [
  ['light', laptop],
  ['dark', { ...laptop, colorScheme: 'dark' }],
  ['phone', phone],
  ['phone, dark', { ...phone, colorScheme: 'dark' }],
];

describe.each(views)('the console in the %s view passes axe (WCAG 2.1 A/AA)', (view, options) => {
  let page: Page;
  beforeAll(async () => {
    page = await (await browser.newContext({ ...options, storageState: signedIn })).newPage();
  });

  it('on the login page', async () => {
    const context = await browser.newContext(options);
    const visitor = await context.newPage();
    await visitor.goto(`${server.url}/login`);
    await visitor.getByRole('button', { name: 'Log in' }).waitFor();
    await expectNoAxeViolations(visitor, `the login page (${view})`);
    // An error message is part of the page too.
    await visitor.getByLabel('E-mail').fill('nobody@example.test');
    await visitor.getByLabel('Password').fill('wrong');
    await visitor.getByRole('button', { name: 'Log in' }).click();
    await visitor.getByRole('alert').waitFor();
    await expectNoAxeViolations(visitor, `the login page with an error (${view})`);
    await context.close();
  });

  it.each(pages)('on $name', async ({ name, path, loaded }) => {
    await page.goto(`${server.url}${path}`);
    await loaded(page).first().waitFor();
    await expectNoAxeViolations(page, `${name} (${view})`);
  });
});

/** Presses Tab until `target` has focus, checking that each element reached shows where focus is. */
async function tabTo(page: Page, target: Locator, limit = 40): Promise<void> {
  for (let presses = 0; presses < limit; presses++) {
    await page.keyboard.press('Tab');
    await expectVisibleFocus(page);
    if (await isFocused(target)) return;
  }
  throw new Error(`${limit} presses of Tab never reached ${target}`);
}

type InPage = { ownerDocument: { activeElement: unknown } };
const isFocused = (locator: Locator) =>
  locator.evaluate((element) => element === (element as unknown as InPage).ownerDocument.activeElement);

// Run in the page, as source text: this package type-checks without the DOM library.
const FOCUSED_ELEMENT = `(() => {
  const element = document.activeElement;
  if (!element || element === document.body) return null;
  const style = getComputedStyle(element);
  const box = element.getBoundingClientRect();
  return {
    what: element.tagName.toLowerCase() + ' "' + (element.textContent || '').trim().slice(0, 40) + '"',
    outline: style.outlineStyle !== 'none' && Number.parseFloat(style.outlineWidth) >= 2,
    shadow: style.boxShadow !== 'none',
    onScreen: box.width > 0 && box.height > 0 && box.bottom > 0 && box.right > 0,
  };
})()`;

async function expectVisibleFocus(page: Page): Promise<void> {
  const focused = (await page.evaluate(FOCUSED_ELEMENT)) as {
    what: string;
    outline: boolean;
    shadow: boolean;
    onScreen: boolean;
  } | null;
  expect(focused, 'Tab left focus nowhere').not.toBeNull();
  expect(focused!.outline || focused!.shadow, `no focus indicator on ${focused!.what}`).toBe(true);
  expect(focused!.onScreen, `focused ${focused!.what} is not on screen`).toBe(true);
}

describe('the console with the keyboard alone', () => {
  let page: Page;
  beforeAll(async () => {
    page = await (await browser.newContext({ ...laptop, storageState: signedIn })).newPage();
    await page.goto(`${server.url}/incidents`);
    await page.getByRole('link', { name: TITLE }).waitFor();
  });
  it('skips to the content with the first Tab', async () => {
    await page.keyboard.press('Tab');
    const skip = page.getByRole('link', { name: 'Skip to content' });
    expect(await isFocused(skip)).toBe(true);
    await expectVisibleFocus(page);
    await page.keyboard.press('Enter');
    expect(await isFocused(page.getByRole('main'))).toBe(true);
    // The next Tab lands on the page's first control, past the navigation.
    await page.keyboard.press('Tab');
    expect(await isFocused(page.getByRole('button', { name: 'New Incident' }))).toBe(true);
  });

  it('opens the New incident form into its first field, and gives focus back on Cancel', async () => {
    await page.keyboard.press('Enter');
    const form = page.getByRole('form', { name: 'New incident' });
    await expect.poll(() => isFocused(form.getByLabel('Title'))).toBe(true);
    await tabTo(page, form.getByRole('button', { name: 'Cancel' }));
    await page.keyboard.press('Enter');
    await form.waitFor({ state: 'detached' });
    expect(await isFocused(page.getByRole('button', { name: 'New Incident' }))).toBe(true);
  });

  it('creates an incident from the keyboard', async () => {
    await page.keyboard.press('Enter');
    await page.keyboard.type('Typed without a mouse');
    await page.keyboard.press('Tab');
    await page.keyboard.press('ArrowDown'); // high → medium
    await tabTo(page, page.getByRole('button', { name: 'Create incident' }));
    await page.keyboard.press('Enter');
    await page.getByRole('heading', { level: 1, name: 'Typed without a mouse' }).waitFor();
    expect(await json('GET', '/api/v1/incidents/3')).toMatchObject({
      title: 'Typed without a mouse',
      severity: 'medium',
    });
  });

  it('filters the list and opens an incident from it with Tab and Enter', async () => {
    await page.goto(`${server.url}/incidents`);
    await page.getByRole('link', { name: 'Typed without a mouse' }).waitFor();
    const triggered = page.getByRole('button', { name: /^Triggered/ });
    await tabTo(page, triggered);
    await page.keyboard.press('Space');
    await page.waitForURL(/status=triggered/);
    // The URL changes first and the list re-renders after it: wait for the button to say so.
    await expect.poll(() => triggered.getAttribute('aria-pressed')).toBe('true');

    const link = page.getByRole('link', { name: 'Typed without a mouse' });
    await tabTo(page, link);
    await page.keyboard.press('Enter');
    await page.getByRole('heading', { level: 1, name: 'Typed without a mouse' }).waitFor();
    // The new page takes focus, so the next Tab starts in it rather than at the top of the old one.
    expect(await isFocused(page.getByRole('main'))).toBe(true);
  });

  it('acknowledges and resolves with the keyboard, focus staying on the actions', async () => {
    await tabTo(page, page.getByRole('button', { name: 'Acknowledge' }));
    await page.keyboard.press('Enter');
    await page.getByRole('main').locator('.badge', { hasText: 'Acknowledged' }).waitFor();
    // The Acknowledge button is gone; focus moved to the next action instead of to nowhere.
    const resolve = page.getByRole('button', { name: 'Resolve' });
    await expect.poll(() => isFocused(resolve)).toBe(true);
    await expectVisibleFocus(page);

    await page.keyboard.press('Space');
    await page.getByRole('main').locator('.badge', { hasText: 'Resolved' }).first().waitFor();
    expect((await json('GET', '/api/v1/incidents/3')).status).toBe('resolved');
    await expect
      .poll(() => isFocused(page.getByText('This incident is resolved; its timeline is closed for changes.')))
      .toBe(true);
    await expectNoAxeViolations(page, 'the resolved incident page');
  });

  it('opens the rule editor and the New user form into their first field, and gives focus back', async () => {
    await page.goto(`${server.url}/routing`);
    const edit = page.getByRole('button', { name: /^Edit / });
    await edit.waitFor();
    await tabTo(page, edit);
    await page.keyboard.press('Enter');
    const editor = page.getByRole('form', { name: /^Edit rule/ });
    await expect.poll(() => isFocused(editor.getByLabel('Name'))).toBe(true);
    await tabTo(page, editor.getByRole('button', { name: 'Cancel' }));
    await page.keyboard.press('Enter');
    await editor.waitFor({ state: 'detached' });
    expect(await isFocused(edit)).toBe(true);

    await page.goto(`${server.url}/users`);
    const newUser = page.getByRole('button', { name: 'New user' });
    await newUser.waitFor();
    await tabTo(page, newUser);
    await page.keyboard.press('Enter');
    const form = page.getByRole('form', { name: 'New user' });
    await expect.poll(() => isFocused(form.getByLabel('Name'))).toBe(true);
    await tabTo(page, form.getByRole('button', { name: 'Cancel' }));
    await page.keyboard.press('Enter');
    await form.waitFor({ state: 'detached' });
    await expect.poll(() => isFocused(newUser)).toBe(true);
  });
});
