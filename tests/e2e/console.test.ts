// The operator's console in a real browser (Debian's Chromium through playwright-core) against the
// real server routes over HTTP, on this file's own database. One operator's session, step by step:
// log in, open an incident, watch the list update by itself, acknowledge, note, commander, resolve
// with MTTR, edit a routing rule and preview it, set the webhook signing secret (and sign a request
// with the recipe the page shows), create an integration and use its sender snippet's URL, dry-run
// and run an OnCall import against the fake OnCall API, and read the schedules. Screenshots of each
// screen go to test-results/screenshots/ (CI artifacts; docs/screenshots/ holds a copy), and each
// screen, in the state the screenshot shows, passes axe-core's WCAG 2.1 A/AA rules.
import { execFile } from 'node:child_process';
import { promisify } from 'node:util';
import { bodyOf, type FakeOnCallApi, startFakeOnCallApi } from '@firebreak/testing';
import type { Browser, BrowserContext, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { expected, loadPreexisting, oncallFixturesDir } from '../support/oncall-fixtures';
import { expectNoAxeViolations } from './support/axe';
import { laptop, launchBrowser, logIn, phone, screenshot } from './support/browser';
import { startWebTestServer, type WebTestServer } from './support/web-server';

const ONCALL_TOKEN = 'oncall-e2e-token';
const TITLE = 'Checkout latency above SLO';

let server: WebTestServer;
let oncall: FakeOnCallApi;
let browser: Browser;
let context: BrowserContext;
let page: Page;
let backupName: string;

beforeAll(async () => {
  server = await startWebTestServer();
  oncall = await startFakeOnCallApi({ fixturesDir: oncallFixturesDir, token: ONCALL_TOKEN });
  await loadPreexisting(server.runtime.sql);
  const backup = await server.api('POST', '/api/v1/users', {
    email: 'bea@example.test',
    name: 'Bea Backup',
    role: 'member',
  });
  backupName = (await bodyOf(backup)).name;
  browser = await launchBrowser();
  context = await browser.newContext(laptop);
  page = await context.newPage();
});
afterAll(async () => {
  await browser?.close();
  await oncall?.close();
  await server?.close();
});

const json = async (method: string, path: string, body?: unknown) =>
  bodyOf(await server.api(method, path, body));
const main = () => page.locator('main');

describe('the operator console', () => {
  it('sends a visitor to the login page and logs in', async () => {
    await page.goto(`${server.url}/incidents`);
    await page.waitForURL(/\/login\?next=%2Fincidents/);
    await page.getByLabel('E-mail').fill(server.admin.email);
    await page.getByLabel('Password').fill('not the password');
    await page.getByRole('button', { name: 'Log in' }).click();
    await expect(page.getByRole('alert').textContent()).resolves.toContain('E-mail or password is wrong.');
    await expectNoAxeViolations(page, 'the login page with an error');

    await logIn(page, server.url, server.admin.email, server.admin.password);
    expect(await page.locator('.whoami').textContent()).toContain('Ada Admin');
    // The session is an HttpOnly cookie, never readable by the page's scripts.
    const cookies = await context.cookies();
    expect(cookies.find((c) => c.name === 'firebreak_session')?.httpOnly).toBe(true);
    expect(await page.evaluate('document.cookie')).not.toContain('firebreak_session');
  });

  it('creates an incident with New Incident and opens its page', async () => {
    await page.getByRole('button', { name: 'New Incident' }).click();
    const form = page.getByRole('form', { name: 'New incident' });
    await form.getByLabel('Title').fill(TITLE);
    await form.getByLabel('Severity').selectOption('critical');
    await expectNoAxeViolations(page, 'the New incident form');
    await form.getByRole('button', { name: 'Create incident' }).click();
    await page.getByRole('heading', { level: 1, name: TITLE }).waitFor();
    const number = page.url().split('/').pop();
    const incident = await json('GET', `/api/v1/incidents/${number}`);
    expect(incident).toMatchObject({
      title: TITLE,
      severity: 'critical',
      status: 'triggered',
      source: 'manual',
    });
    await page.locator('[data-entry-type="incident_created"]').waitFor();
  });

  it('shows an incident opened by an alert in the list without a reload, with counts per status', async () => {
    await page.getByRole('link', { name: '← Incidents' }).click();
    await page.getByRole('link', { name: TITLE }).waitFor();
    // A marker on the page's window: still there afterwards means the page was never reloaded.
    await page.evaluate('window.stillHere = true');
    const sent = await server.api('POST', '/api/v1/webhooks/generic', {
      alerts: [
        {
          title: 'Disk almost full on db-1',
          severity: 'critical',
          external_id: 'disk-db-1',
          labels: { host: 'db-1' },
        },
      ],
    });
    expect((await bodyOf(sent)).incidents_created).toBe(1);

    await page.getByRole('link', { name: 'Disk almost full on db-1' }).waitFor({ timeout: 15_000 });
    // A screen reader hears of it too, through a polite live region.
    expect(await page.getByTestId('arrival-notice').textContent()).toBe(
      'New incident #2: Disk almost full on db-1',
    );
    expect(await page.getByTestId('arrival-notice').getAttribute('role')).toBe('status');
    expect(await page.evaluate('window.stillHere')).toBe(true);
    await expect.poll(() => page.getByTestId('count-triggered').textContent(), { timeout: 20_000 }).toBe('2');
    expect(await page.getByTestId('count-resolved').textContent()).toBe('0');

    await page.getByRole('button', { name: /Triggered/ }).click();
    await page.waitForURL(/status=triggered/);
    await expect
      .poll(() => page.getByRole('table', { name: 'Incidents' }).locator('tbody tr').count())
      .toBe(2);
    await page.getByLabel('Severity').selectOption('low');
    await page.getByText('No incidents match these filters.').waitFor();
    await page.getByLabel('Severity').selectOption('');
    await page.getByRole('button', { name: /^All/ }).click();
    await page.getByRole('link', { name: TITLE }).waitFor();
    await screenshot(page, 'incidents-list');
    await expectNoAxeViolations(page, 'the incidents list');
  });

  it('acknowledges, takes notes, sets the commander, resolves and shows MTTR', async () => {
    await page.getByRole('link', { name: TITLE }).click();
    await page.getByRole('button', { name: 'Acknowledge' }).click();
    await main().locator('.badge', { hasText: 'Acknowledged' }).waitFor();
    expect(await page.getByRole('button', { name: 'Acknowledge' }).count()).toBe(0);

    await page.getByLabel('Add a note').fill('Rolled back deploy 4512; latency recovering.');
    await page.getByRole('button', { name: 'Add note' }).click();
    await page.locator('[data-entry-type="message"]', { hasText: 'Rolled back deploy 4512' }).waitFor();
    expect(await page.getByLabel('Add a note').inputValue()).toBe('');

    await page.getByRole('button', { name: 'Make me commander' }).click();
    await expect.poll(() => page.getByTestId('commander').textContent()).toBe('Ada Admin');
    await page.getByLabel('Set commander').selectOption({ label: `${backupName} (bea@example.test)` });
    await page.getByRole('button', { name: 'Assign' }).click();
    await expect.poll(() => page.getByTestId('commander').textContent()).toBe('Bea Backup');
    await page
      .locator('[data-entry-type="commander_assigned"]', { hasText: 'Bea Backup is the commander' })
      .waitFor();

    await page.getByLabel('Severity').selectOption('high');
    await page.locator('[data-entry-type="severity_changed"]', { hasText: 'critical → high' }).waitFor();

    await page.getByRole('button', { name: 'Resolve' }).click();
    await main().locator('.badge', { hasText: 'Resolved' }).first().waitFor();
    const number = page.url().split('/').pop();
    const incident = await json('GET', `/api/v1/incidents/${number}`);
    expect(incident.status).toBe('resolved');
    expect(incident.mttr_seconds).toEqual(expect.any(Number));
    const mttr = await page.getByTestId('mttr').textContent();
    expect(mttr).toMatch(/^(\d+m )?\d+s$/);
    const [minutes, seconds] = mttr!.includes('m ') ? mttr!.split('m ') : ['0', mttr!];
    expect(Number(minutes) * 60 + Number.parseInt(seconds!, 10)).toBe(incident.mttr_seconds);
    await page
      .locator('[data-entry-type="status_changed"]', { hasText: 'acknowledged → resolved — time to resolve' })
      .waitFor();
    expect(await page.getByRole('button', { name: 'Resolve' }).count()).toBe(0);
    // The timeline is sealed: nothing is offered that the API would refuse.
    await page.getByText('This incident is resolved; its timeline is closed for changes.').waitFor();
    expect(await page.getByLabel('Severity').count()).toBe(0);
    expect(await page.getByRole('button', { name: 'Add note' }).count()).toBe(0);
    expect(await page.getByRole('button', { name: 'Make me commander' }).count()).toBe(0);

    const types = (await json('GET', `/api/v1/incidents/${number}/timeline`)).entries.map(
      (e: { type: string }) => e.type,
    );
    expect(types).toEqual([
      'incident_created',
      'status_changed',
      'message',
      'commander_assigned',
      'commander_assigned',
      'severity_changed',
      'status_changed',
    ]);
    await screenshot(page, 'incident-page');
    await expectNoAxeViolations(page, 'the incident page');
  });

  it('edits a routing rule, shows the API refusing a bad one, and previews a sample alert', async () => {
    await page.getByRole('navigation', { name: 'Main' }).getByRole('link', { name: 'Routing' }).click();
    const table = page.getByRole('table', { name: 'Routing rules' });
    await table.getByText('Default: critical and warning alerts open incidents').waitFor();
    await page
      .getByRole('button', { name: 'Edit Default: critical and warning alerts open incidents' })
      .click();
    const editor = page.getByRole('form', { name: /Edit rule/ });
    await editor.getByLabel('Name').fill('Open incidents for every severity');
    await editor.getByLabel('info').check();

    // A label without a key is refused by the API, and the page says why.
    await editor.getByLabel(/^Labels/).fill('=storage');
    await editor.getByRole('button', { name: 'Save rule' }).click();
    await editor.getByRole('alert').filter({ hasText: 'The rule was not saved' }).waitFor();
    expect(await editor.getByRole('alert').textContent()).toMatch(/labels/);
    await expectNoAxeViolations(page, 'the routing rule editor with an error');

    await editor.getByLabel(/^Labels/).fill('');
    await editor.getByRole('button', { name: 'Save rule' }).click();
    await table.getByText('Open incidents for every severity').waitFor();
    expect(await table.textContent()).toContain('severity critical or warning or info');
    const [rule] = (await json('GET', '/api/v1/routing-rules')).routing_rules;
    expect(rule).toMatchObject({
      name: 'Open incidents for every severity',
      match_criteria: { severity: ['critical', 'warning', 'info'] },
    });

    const preview = page.getByRole('form', { name: 'Test against a sample alert' });
    await preview.getByLabel('Severity').selectOption('info');
    await preview.getByRole('button', { name: 'Test' }).click();
    const result = page.getByTestId('preview-result');
    await result.waitFor();
    expect(await result.textContent()).toBe(
      'Taken by Open incidents for every severity (priority 1000): incident (low)',
    );
    await screenshot(page, 'routing-rules');
    await expectNoAxeViolations(page, 'the routing rules with a preview');
  });

  it('shows the fields of the rule chosen last when Edit is pressed on another rule', async () => {
    await json('POST', '/api/v1/routing-rules', {
      name: 'Page the storage team',
      priority: 10,
      match_criteria: { labels: { team: 'storage' } },
      actions: { create_incident: true },
    });
    await page.reload();
    const table = page.getByRole('table', { name: 'Routing rules' });
    await table.getByText('Page the storage team').waitFor();
    await page.getByRole('button', { name: 'Edit Open incidents for every severity' }).click();
    const editor = page.getByRole('form', { name: /Edit rule/ });
    expect(await editor.getByLabel('Name').inputValue()).toBe('Open incidents for every severity');
    await page.getByRole('button', { name: 'Edit Page the storage team' }).click();
    expect(await editor.getByLabel('Name').inputValue()).toBe('Page the storage team');
    await editor.getByRole('button', { name: 'Cancel' }).click();
  });

  it('sets the generic webhook signing secret; the page recipe signs a request the API accepts', async () => {
    await page.getByRole('navigation', { name: 'Main' }).getByRole('link', { name: 'Settings' }).click();
    const state = page.getByTestId('signing-secret-state');
    expect(await state.textContent()).toContain('not set');
    const secret = 'e2e-signing-secret-0123456789';
    await page.getByLabel(/New signing secret/).fill(secret);
    await page.getByRole('button', { name: 'Save secret' }).click();
    await page.getByRole('status').filter({ hasText: 'Signing secret saved.' }).waitFor();
    expect(await state.textContent()).toContain('set — requests must be signed');
    expect(await page.getByLabel(/New signing secret/).inputValue()).toBe('');
    expect((await json('GET', '/api/v1/settings')).generic_webhook.signing_secret_set).toBe(true);

    const unsigned = await server.api('POST', '/api/v1/webhooks/generic', {
      alerts: [{ title: 'unsigned' }],
    });
    expect(unsigned.status).toBe(401);
    // The recipe exactly as the page shows it, run by a shell with the secret in $SECRET.
    const recipe = await page.getByTestId('signature-recipe').textContent();
    expect(recipe).toContain(`${server.url}/api/v1/webhooks/generic`);
    // Asynchronously: the server that answers it runs in this process.
    const { stdout } = await promisify(execFile)('bash', ['-c', recipe!], {
      env: { ...process.env, SECRET: secret },
      timeout: 20_000,
    });
    expect(JSON.parse(stdout)).toMatchObject({ received: 1, created: 1 });
    await screenshot(page, 'settings');
    await expectNoAxeViolations(page, 'the settings');
  });

  it('creates an integration whose sender snippet carries its intake URL, which takes alerts', async () => {
    await page.getByRole('navigation', { name: 'Main' }).getByRole('link', { name: 'Integrations' }).click();
    // The generic path is signed now; the others still take alerts from anyone, and the page says so.
    const notice = page.getByTestId('open-intake');
    await notice.waitFor();
    expect(await notice.textContent()).toContain('/api/v1/webhooks/metrics-alertmanager');
    expect(await notice.textContent()).not.toContain('/api/v1/webhooks/generic');

    await page.getByRole('button', { name: 'New integration' }).click();
    const form = page.getByRole('form', { name: 'New integration' });
    await form.getByLabel('Name', { exact: true }).fill('Prod Alertmanager');
    await form.getByLabel(/^Type/).selectOption('alertmanager');
    await form.getByLabel(/^Labels/).fill('env=prod');
    await expectNoAxeViolations(page, 'the New integration form');
    await form.getByRole('button', { name: 'Create integration' }).click();

    const details = page.getByTestId('integration-details');
    await details.waitFor();
    const [integration] = (await json('GET', '/api/v1/integrations')).integrations;
    expect(integration).toMatchObject({
      name: 'Prod Alertmanager',
      type: 'alertmanager',
      labels: { env: 'prod' },
    });
    expect(await details.getByTestId('intake-url').textContent()).toBe(integration.intake_url);
    expect(await details.getByTestId('sender-snippet').textContent()).toContain(
      `url: ${integration.intake_url}`,
    );

    // The URL as the snippet gives it takes an Alertmanager group with no other credential.
    const sent = await fetch(integration.intake_url, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({
        status: 'firing',
        alerts: [{ status: 'firing', labels: { alertname: 'QueueBacklog', severity: 'info' } }],
      }),
    });
    expect(sent.status).toBe(200);
    expect((await bodyOf(sent)).received).toBe(1);
    await screenshot(page, 'integrations');
    await expectNoAxeViolations(page, 'the integrations');
  });

  it('previews a Grafana OnCall import with a dry run, then imports', async () => {
    const before = (await json('GET', '/api/v1/users')).users.length;
    await page.getByRole('navigation', { name: 'Main' }).getByRole('link', { name: 'Import' }).click();
    await page.getByLabel(/OnCall API URL/).fill(oncall.url);
    await page.getByLabel(/API token/).fill(ONCALL_TOKEN);
    expect(await page.getByRole('button', { name: 'Import now' }).isDisabled()).toBe(true);
    await page.getByRole('button', { name: 'Preview (dry run)' }).click();
    await page.getByText('Dry run: nothing was written.').waitFor();

    const summary = page.getByRole('table', { name: 'Import summary' });
    const row = (label: string) => summary.getByRole('row', { name: new RegExp(`^${label}`) }).locator('td');
    for (const [label, key] of [
      ['Users', 'users'],
      ['Schedules', 'schedules'],
      ['Escalation policies', 'escalation_policies'],
    ] as const) {
      expect(await row(label).allTextContents()).toEqual([
        label,
        String(expected.summary[key].created),
        String(expected.summary[key].skipped),
      ]);
    }
    expect(await page.getByRole('heading', { name: /^Skipped/ }).textContent()).toBe(
      `Skipped (${expected.conflicts.length})`,
    );
    for (const schedule of expected.schedules)
      await page.getByText(schedule.name, { exact: false }).first().waitFor();
    expect((await json('GET', '/api/v1/users')).users.length).toBe(before);
    await screenshot(page, 'import-preview');
    await expectNoAxeViolations(page, 'the OnCall import dry run');

    await page.getByRole('button', { name: 'Import now' }).click();
    await page.getByText('Import done.').waitFor();
    await expectNoAxeViolations(page, 'the OnCall import result');
    expect((await json('GET', '/api/v1/users')).users.length).toBe(before + expected.summary.users.created);
    expect(
      (await json('GET', '/api/v1/schedules')).schedules.map((s: { name: string }) => s.name).sort(),
    ).toEqual(expected.schedules.map((s: { name: string }) => s.name).sort());
  });

  it('shows who is on call now and the next shifts of each schedule', async () => {
    await page.getByRole('navigation', { name: 'Main' }).getByRole('link', { name: 'Schedules' }).click();
    const { schedules } = await json('GET', '/api/v1/schedules');
    for (const schedule of schedules) {
      const card = page.getByRole('region', { name: `Schedule ${schedule.name}` });
      const onCall = await json('GET', `/api/v1/schedules/${schedule.id}/on-call`);
      const names = onCall.users.map((u: { name: string }) => u.name).join(', ') || 'Nobody';
      await expect.poll(() => card.getByTestId('on-call-now').textContent()).toBe(names);
      if (onCall.users.length > 0) {
        // The first of the next shifts is the one running now.
        expect(await card.locator('tbody tr').first().locator('td').first().textContent()).toBe(
          onCall.users[0].name,
        );
      }
    }
    await screenshot(page, 'schedules');
    await expectNoAxeViolations(page, 'the schedules');
  });

  it('reads well in the dark and at phone width', async () => {
    const state = await context.storageState();
    const dark = await browser.newContext({ ...laptop, colorScheme: 'dark', storageState: state });
    const darkPage = await dark.newPage();
    await darkPage.goto(`${server.url}/incidents/1`);
    await darkPage.getByRole('heading', { level: 1, name: TITLE }).waitFor();
    const background = await darkPage.evaluate('getComputedStyle(document.body).backgroundColor');
    expect(background).toBe('rgb(15, 19, 24)');
    await screenshot(darkPage, 'incident-page-dark');
    await expectNoAxeViolations(darkPage, 'the incident page (dark)');
    await dark.close();

    const small = await browser.newContext({ ...phone, storageState: state });
    const phonePage = await small.newPage();
    await phonePage.goto(`${server.url}/incidents`);
    await phonePage.getByRole('link', { name: TITLE }).waitFor();
    // Nothing but the table scrolls sideways: the page itself fits the screen.
    const overflow = await phonePage.evaluate('document.documentElement.scrollWidth - window.innerWidth');
    expect(overflow).toBeLessThanOrEqual(0);
    await screenshot(phonePage, 'incidents-list-phone');
    await expectNoAxeViolations(phonePage, 'the incidents list (phone)');
    await small.close();
  });

  it('serves the app for its own paths on reload, and keeps API paths JSON', async () => {
    const reload = await fetch(`${server.url}/incidents/1`);
    expect(reload.status).toBe(200);
    expect(reload.headers.get('cache-control')).toBe('no-cache');
    expect(await reload.text()).toContain('<div id="root">');
    const missing = await fetch(`${server.url}/api/v1/nothing-here`);
    expect(missing.status).toBe(404);
    expect((await bodyOf(missing)).error.code).toBe('not_found');
    const asset = /\/assets\/[^"]+\.js/.exec(await (await fetch(`${server.url}/`)).text())![0];
    const script = await fetch(`${server.url}${asset}`);
    expect(script.headers.get('cache-control')).toContain('immutable');
    expect((await fetch(`${server.url}/assets/gone-1234.js`)).status).toBe(404);
  });
});
