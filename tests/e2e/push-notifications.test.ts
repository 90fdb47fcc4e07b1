// The installable web app and its service worker (docs/paging-twilio-push.md#the-installable-web-app),
// in Debian's Chromium against the real server over HTTP.
//
// What this proves: the built console links a manifest the browser accepts as installable metadata
// (name, standalone, PNG icons that load) and registers /sw.js for the whole origin; a push message
// delivered to that registration (the DevTools protocol's ServiceWorker.deliverPushMessage, which fires
// the worker's real `push` event, as a push service's message would once decrypted by the browser)
// shows a notification with the page's title and body, requireInteraction and an Acknowledge action;
// and the worker's click handler, run on that very notification with the `ack` action, POSTs the
// link without a cookie to the server, which acknowledges the incident as the paged person, after which
// the worker shows the confirmation.
//
// What it does not: headless Chromium has no notification centre to click, so the `notificationclick`
// event itself is not fired by a click; the test calls `onNotificationClick(notification, 'ack')`, the
// function the listener hands the event's notification and action to. Subscribing through a real push
// service (FCM) needs the network and is covered by the sender's tests against the fake push service.
import { pageLinkUrl } from '@firebreak/services';
import { bodyOf } from '@firebreak/testing';
import type { Browser, BrowserContext, CDPSession, Page, Worker } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { laptop, launchBrowser } from './support/browser';
import { startWebTestServer, type WebTestServer } from './support/web-server';

let server: WebTestServer;
let browser: Browser;
let context: BrowserContext;
let page: Page;
let worker: Worker;
let cdp: CDPSession;

beforeAll(async () => {
  server = await startWebTestServer();
  browser = await launchBrowser();
  context = await browser.newContext(laptop);
  await context.grantPermissions(['notifications'], { origin: server.url });
  page = await context.newPage();
  cdp = await context.newCDPSession(page);
});
afterAll(async () => {
  await browser?.close();
  await server?.close();
});

interface ShownNotification {
  title: string;
  body: string;
  tag: string;
  requireInteraction: boolean;
  actions: Array<{ action: string; title: string }>;
  data: { url?: string; ack_url?: string };
}

const NOTIFICATIONS = `self.registration.getNotifications().then((list) => list.map((n) => ({
  title: n.title, body: n.body, tag: n.tag, requireInteraction: n.requireInteraction,
  actions: n.actions.map((a) => ({ action: a.action, title: a.title })), data: n.data,
})))`;

async function notifications(): Promise<ShownNotification[]> {
  return (await worker.evaluate(NOTIFICATIONS)) as ShownNotification[];
}

async function waitForNotifications(
  check: (list: ShownNotification[]) => boolean,
): Promise<ShownNotification[]> {
  // Up to 30 s: on a busy machine (two test files at once, each with its browser) the browser may
  // first have to start the stopped worker to hand it the push; alone it takes well under a second.
  for (let i = 0; i < 600; i += 1) {
    const list = await notifications();
    if (check(list)) return list;
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
  throw new Error(`notifications never matched: ${JSON.stringify(await notifications())}`);
}

describe('the installable web app', () => {
  it('links a manifest with a name, standalone display and icons that load', async () => {
    await page.goto(`${server.url}/`);
    const href = await page.locator('link[rel="manifest"]').getAttribute('href');
    expect(href).toBe('/manifest.webmanifest');
    const manifest = await bodyOf(await fetch(`${server.url}${href}`));
    expect(manifest).toMatchObject({ name: 'Firebreak', start_url: '/', display: 'standalone' });
    const sizes = manifest.icons.map((icon: { sizes: string }) => icon.sizes);
    expect(sizes).toEqual(expect.arrayContaining(['192x192', '512x512']));
    for (const icon of manifest.icons) {
      const response = await fetch(`${server.url}${icon.src}`);
      expect(response.status, icon.src).toBe(200);
      expect(response.headers.get('content-type')?.split(';')[0], icon.src).toBe(icon.type);
    }
    // The browser's own reading of the manifest: what an install prompt would use.
    const { errors, parsed } = await readManifestWithDevTools();
    expect(errors).toEqual([]);
    expect(parsed).toMatchObject({ display: 'standalone', name: 'Firebreak' });
  });

  it('registers the service worker for the whole origin', async () => {
    const scope = await page.evaluate(
      'navigator.serviceWorker.ready.then((registration) => registration.scope)',
    );
    expect(scope).toBe(`${server.url}/`);
    worker = context.serviceWorkers()[0] ?? (await context.waitForEvent('serviceworker'));
    expect(worker.url()).toBe(`${server.url}/sw.js`);
  });

  it('shows a pushed page with its Acknowledge action, and the action acknowledges the incident', async () => {
    const incident = await bodyOf(
      await server.api('POST', '/api/v1/incidents', { title: 'Payments failing', severity: 'critical' }),
    );
    // As the worker writes it (apps/worker/src/notify/messages.ts): the page link, marked as push.
    const link = await pageLinkUrl(server.runtime.ctx, {
      publicUrl: server.url,
      incidentId: incident.id,
      userId: server.admin.id,
    });
    const ackUrl = `${link}?via=push`;
    const incidentUrl = `${server.url}/incidents/${incident.number}`;
    await deliverPush({
      title: `#${incident.number} critical: Payments failing`,
      body: 'You are paged (escalation tier 1).',
      url: incidentUrl,
      ack_url: ackUrl,
      tag: `incident-${incident.id}`,
    });

    const [shown] = await waitForNotifications((list) => list.length === 1);
    expect(shown).toEqual({
      title: `#${incident.number} critical: Payments failing`,
      body: 'You are paged (escalation tier 1).',
      tag: `incident-${incident.id}`,
      requireInteraction: true,
      actions: [{ action: 'ack', title: 'Acknowledge' }],
      data: { url: incidentUrl, ack_url: ackUrl, tag: `incident-${incident.id}` },
    });

    // The Acknowledge button: the worker's own click handler, on the notification the browser holds.
    const acknowledged = server.runtime.logs.lines.length;
    await worker.evaluate(
      `self.registration.getNotifications().then(([n]) => onNotificationClick(n, 'ack'))`,
    );
    const requests = server.runtime.logs.lines.slice(acknowledged).filter((line) => line.msg === 'request');
    expect(requests).toContainEqual(
      expect.objectContaining({
        method: 'POST',
        path: expect.stringContaining('/api/v1/page/'),
        status: 200,
      }),
    );
    const after = await bodyOf(await server.api('GET', `/api/v1/incidents/${incident.id}`));
    expect(after.status).toBe('acknowledged');
    const { entries } = await bodyOf(await server.api('GET', `/api/v1/incidents/${incident.id}/timeline`));
    expect(entries.at(-1)).toMatchObject({
      actor: { type: 'user', id: server.admin.id },
      data: expect.objectContaining({ to: 'acknowledged', via: 'push' }),
    });
    const [confirmation] = await waitForNotifications((list) => list[0]?.title !== shown!.title);
    expect(confirmation).toMatchObject({
      title: 'Acknowledged',
      tag: `incident-${incident.id}`,
      actions: [],
    });
  }, 90_000);
});

/** ServiceWorker.deliverPushMessage: the browser fires the worker's `push` event with this data. */
async function deliverPush(payload: Record<string, string>): Promise<void> {
  const registrations = new Promise<string>((resolve) => {
    cdp.on('ServiceWorker.workerRegistrationUpdated', ({ registrations: list }) => {
      const ours = list.find((r: { scopeURL: string }) => r.scopeURL === `${server.url}/`);
      if (ours) resolve(ours.registrationId);
    });
  });
  await cdp.send('ServiceWorker.enable');
  await cdp.send('ServiceWorker.deliverPushMessage', {
    origin: server.url,
    registrationId: await registrations,
    data: JSON.stringify(payload),
  });
}

async function readManifestWithDevTools(): Promise<{ errors: unknown[]; parsed: Record<string, unknown> }> {
  const answer = (await cdp.send('Page.getAppManifest')) as {
    errors: unknown[];
    data?: string;
  };
  return { errors: answer.errors, parsed: answer.data ? JSON.parse(answer.data) : {} };
}
