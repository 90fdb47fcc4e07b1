// The generic webhook through the API's other routes (docs/integrations/alert-webhooks.md#generic): who
// may set its signing secret, and the alert list its alerts land in. The route itself is tested against
// the ingest app, beside it (apps/ingest/src/routes/generic.test.ts).
import { createTestUser } from '@firebreak/runtime/testing';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestServer, type TestServer } from './support/server-app';

let s: TestServer;
beforeAll(async () => {
  s = await startTestServer();
});
afterAll(() => s.runtime.cleanup());

describe('PUT /api/v1/settings/integrations/generic-webhook', () => {
  it('is set by admins only and must be long enough', async () => {
    const member = await createTestUser(s.runtime, 'member');
    const put = (token: string, signing_secret: unknown) =>
      s.api('PUT', '/api/v1/settings/integrations/generic-webhook', { token, body: { signing_secret } });
    expect((await put(member.token, 'a-long-enough-secret')).status).toBe(403);
    expect((await put(s.admin.token, 'short')).status).toBe(400);
  });
});

describe('GET /api/v1/alerts', () => {
  it('lists newest received first, filters by status and source, pages with a cursor', async () => {
    const source = 'lister';
    for (let i = 0; i < 5; i++) {
      const alert = { title: `list ${i}`, severity: 'info', source, status: i % 2 ? 'resolved' : 'firing' };
      expect((await s.webhook('/api/v1/webhooks/generic', { alerts: [alert] })).status).toBe(200);
    }
    const all = await s.get(`/api/v1/alerts?source=${source}&sort=-received_at`);
    expect(all.alerts.map((a: { title: string }) => a.title)).toEqual([
      'list 4',
      'list 3',
      'list 2',
      'list 1',
      'list 0',
    ]);
    const firing = await s.get(`/api/v1/alerts?source=${source}&status=firing`);
    expect(firing.alerts).toHaveLength(3);
    const page1 = await s.get(`/api/v1/alerts?source=${source}&limit=2`);
    const page2 = await s.get(`/api/v1/alerts?source=${source}&limit=2&cursor=${page1.next_cursor}`);
    const page3 = await s.get(`/api/v1/alerts?source=${source}&limit=2&cursor=${page2.next_cursor}`);
    expect(
      [...page1.alerts, ...page2.alerts, ...page3.alerts].map((a: { title: string }) => a.title),
    ).toEqual(all.alerts.map((a: { title: string }) => a.title));
    expect(page3.next_cursor).toBeNull();
    const bad = await s.api('GET', '/api/v1/alerts?sort=received_at', { token: s.admin.token });
    expect(bad.status).toBe(400);
  });
});
