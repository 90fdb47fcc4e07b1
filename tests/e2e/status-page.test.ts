// The public status page in a real browser against the real server routes, on this file's own
// database: an admin names the page and adds a component on the Status page screen; a member publishes
// an update from the incident's page; a browser with JavaScript turned off reads /status (title,
// overall status, component, the update, the feed link) and finds nothing of the incident's own title.
// Each screen passes axe-core's WCAG 2.1 A/AA rules.
import { readFileSync } from 'node:fs';
import { resolve } from 'node:path';
import type { AlertInput } from '@firebreak/schema';
import { recordAlerts } from '@firebreak/services';
import { bodyOf } from '@firebreak/testing';
import type { Browser, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { nginxUpstreamFor, SHIPPED_NGINX_CONF } from '../../infra/local/nginx';
import { expectNoAxeViolations } from './support/axe';
import { laptop, launchBrowser, logIn, screenshot } from './support/browser';
import { startWebTestServer, type WebTestServer } from './support/web-server';

const SECRET_TITLE = 'SECRET db-primary-7 disk full for customer acme';
const MESSAGE = 'Checkout is failing for some customers; we are rolling back.';

let server: WebTestServer;
let browser: Browser;
let incident: { id: string; number: number };

beforeAll(async () => {
  server = await startWebTestServer();
  browser = await launchBrowser();
  // An incident from an alert that carries the label the component will follow.
  const alert: AlertInput = {
    title: SECRET_TITLE,
    description: null,
    severity: 'critical',
    status: 'firing',
    externalId: 'status-page-e2e',
    fingerprint: null,
    source: 'prometheus',
    labels: { service: 'checkout', customer: 'acme' },
    annotations: {},
    startedAt: new Date(),
    endedAt: null,
  };
  const result = await recordAlerts(server.runtime.ctx, 'generic', [alert]);
  const id = result.alerts[0]!.incident_id!;
  incident = await bodyOf(await server.api('GET', `/api/v1/incidents/${id}`));
}, 120_000);
afterAll(async () => {
  await browser?.close();
  await server?.close();
});

async function loggedIn(): Promise<Page> {
  const page = await (await browser.newContext(laptop)).newPage();
  page.setDefaultTimeout(10_000);
  await logIn(page, server.url, server.admin.email, server.admin.password);
  return page;
}

describe('the status page', () => {
  it('is set up on the admin screen: title and a component that follows the incident', async () => {
    const page = await loggedIn();
    const nav = page.getByRole('navigation', { name: 'Main' });
    await nav.getByText('Follow-up').click();
    await nav.getByRole('link', { name: 'Status page' }).click();
    await page.getByRole('heading', { level: 1, name: 'Status page' }).waitFor();
    await page.getByText('No components yet').waitFor();

    const titleForm = page.getByRole('form', { name: 'Page title' });
    await titleForm.getByLabel(/^Page title/).fill('Acme Shop status');
    await titleForm.getByRole('button', { name: 'Save title' }).click();
    await titleForm.getByRole('status').filter({ hasText: 'Saved.' }).waitFor();

    await page.getByRole('button', { name: 'New component' }).click();
    const editor = page.getByRole('form', { name: 'New component' });
    await editor.getByLabel(/^Name/).fill('Checkout');
    await editor.getByLabel(/^Group/).fill('Shop');
    await editor.getByLabel(/^Follows incidents/).fill('service=checkout');
    await editor.getByRole('button', { name: 'Save component' }).click();
    const row = page
      .getByRole('table', { name: 'Components' })
      .getByRole('row')
      .filter({ hasText: 'Checkout' });
    // The open critical incident carries service=checkout.
    await row.getByText('Major outage').waitFor();
    await row.getByText('(automatic)').waitFor();
    await expectNoAxeViolations(page, 'the Status page screen');
    await screenshot(page, 'status-page');

    const { components } = await bodyOf(await server.api('GET', '/api/v1/status-page/components'));
    expect(components).toEqual([
      expect.objectContaining({
        name: 'Checkout',
        group: 'Shop',
        match: { service: 'checkout' },
        status: null,
      }),
    ]);
    await page.close();
  });

  it('publishes an update from the incident page, which the timeline records', async () => {
    const page = await loggedIn();
    await page.goto(`${server.url}/incidents/${incident.number}`);
    const card = page.getByRole('region', { name: 'Public updates' });
    await card.getByText('Not public yet').waitFor();
    await card.getByText('“Service disruption: Checkout”').waitFor();
    const form = card.getByRole('form', { name: 'Publish a public update' });
    await form.getByLabel('Status').selectOption('identified');
    await form.getByLabel(/^Public message/).fill(MESSAGE);
    await form.getByRole('button', { name: 'Publish update' }).click();
    const published = card.getByRole('list', { name: 'Published updates' });
    await published.getByText(MESSAGE).waitFor();
    await published.getByText('Identified').waitFor();
    await page.getByText('Public update published on the status page (Identified)').waitFor();
    await expectNoAxeViolations(page, 'the incident page with a public update');
    await screenshot(page, 'status-page-incident-card');
    await page.close();
  });

  it('is read without JavaScript at /status, and shows nothing internal', async () => {
    const context = await browser.newContext({ ...laptop, javaScriptEnabled: false });
    const page = await context.newPage();
    page.setDefaultTimeout(10_000);
    const response = await page.goto(`${server.url}/status`);
    expect(response?.status()).toBe(200);
    expect(response?.headers()['cache-control']).toBe('public, max-age=30');
    await page.getByRole('heading', { level: 1, name: 'Acme Shop status' }).waitFor();
    expect(await page.title()).toBe('Acme Shop status');
    expect(await page.getByRole('status').textContent()).toBe('Major outage');
    const checkout = page.getByRole('list', { name: 'Shop' }).getByRole('listitem');
    expect(await checkout.textContent()).toBe('CheckoutMajor outage');
    const current = page.getByRole('region', { name: 'Current incidents' });
    await current.getByRole('heading', { level: 3, name: 'Service disruption: Checkout' }).waitFor();
    await current.getByText(MESSAGE).waitFor();
    const feedLink = page.getByRole('link', { name: /Atom feed/ });
    expect(await feedLink.getAttribute('href')).toBe('/status/feed.atom');
    const text = (await page.content()).toLowerCase();
    for (const secret of ['secret', 'db-primary-7', 'customer acme', incident.id]) {
      expect(text.includes(secret), `/status shows ${secret}`).toBe(false);
    }
    await screenshot(page, 'status-page-public');
    await context.close();

    // The same page through axe, which needs script in the page to run.
    const checked = await (await browser.newContext(laptop)).newPage();
    await checked.goto(`${server.url}/status`);
    await expectNoAxeViolations(checked, 'the public status page');
    await checked.close();

    const feed = await fetch(`${server.url}/status/feed.atom`);
    const atom = await feed.text();
    expect(atom).toContain('<title>Acme Shop status</title>');
    // Links come from the configuration (here without PUBLIC_URL: the address announced at start),
    // never from the Host header the request named.
    expect(atom).toMatch(/<link href="http:\/\/localhost:\d+\/status#incident-/);
    expect(atom).not.toContain(server.url);
    expect(atom).toContain(MESSAGE);
    expect(atom.toLowerCase()).not.toContain('secret');
  });

  it('is routed to the API by the split deployment’s proxy', () => {
    const nginx = readFileSync(resolve(SHIPPED_NGINX_CONF), 'utf8');
    expect(nginxUpstreamFor(nginx, '/status')).toBe('api');
    expect(nginxUpstreamFor(nginx, '/status/feed.atom')).toBe('api');
    expect(nginxUpstreamFor(nginx, '/api/v1/status')).toBe('api');
  });
});
