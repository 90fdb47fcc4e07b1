// The public status page (docs/status-page.md): components (admin CRUD, roles, validation, audit),
// statuses computed from open incidents, public updates, and what /status, its feed and
// GET /api/v1/status show — to anyone, cached for 30 s (computed at most every 10 s per process), and
// nothing internal.
import { oneUserPerRole, startTestApp, type TestRuntime, type TestUser } from '@firebreak/runtime/testing';
import { type AlertInput, NOT_XML_TEXT } from '@firebreak/schema';
import {
  MAX_LISTED_INCIDENTS,
  MAX_PUBLIC_UPDATES_PER_INCIDENT,
  readPublicStatus,
  recordAlerts,
  type ServiceContext,
} from '@firebreak/services';
import { bodyOf, type JsonBody, type TestClient } from '@firebreak/testing';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { createApp } from './app';
import { PUBLIC_STATUS_TTL_MS } from './routes/status-page';
import { MAX_FEED_ENTRIES } from './status-page/feed';

const COMPONENTS = '/api/v1/status-page/components';
let runtime: TestRuntime;
let app: ReturnType<typeof createApp>;
let api: TestClient;
let admin: TestUser;
let member: TestUser;
let viewer: TestUser;
/**
 * The app's clock runs this far ahead of the real one: each process keeps the public status for 10 s,
 * so a test that changed something moves past that before reading the page again (`fresh`).
 */
let aheadMs = 0;
const appClock = () => new Date(Date.now() + aheadMs);
/** Lets the kept public status expire. */
const expireKept = () => {
  aheadMs += PUBLIC_STATUS_TTL_MS;
};
/** A public address, read after whatever the test changed. */
const fresh = (path: string, init?: RequestInit) => {
  expireKept();
  return app.request(path, init);
};

beforeAll(async () => {
  ({
    runtime,
    app,
    api,
    users: { admin, member, viewer },
  } = await startTestApp((deps) => createApp({ ...deps, ctx: { ...deps.ctx, now: appClock } }), {
    users: oneUserPerRole,
  }));
  // Many incidents from alerts in a few seconds: storm mode would join them into one.
  const off = await api('PATCH', '/api/v1/settings', {
    token: admin.token,
    body: { storm_mode_enabled: false },
  });
  expect(off.status).toBe(200);
});
afterAll(() => runtime.cleanup());
// Each test starts with an empty page: no components, no open or published incident.
beforeEach(async () => {
  await runtime.sql`delete from status_page_components`;
  await runtime.sql`delete from status_page_incidents`;
  await runtime.sql`update incidents set status = 'resolved', resolved_at = now() where status <> 'resolved'`;
});

let alertCounter = 0;
/** An incident opened by one alert with these labels, at this severity; answers its id. */
async function incidentWith(labels: Record<string, string>, severity = 'critical', title = 'Disk full') {
  alertCounter += 1;
  const input: AlertInput = {
    title,
    description: null,
    severity: 'critical',
    status: 'firing',
    externalId: `status-page-${alertCounter}-${Date.now()}`,
    fingerprint: null,
    source: 'prometheus',
    labels,
    annotations: {},
    startedAt: new Date(),
    endedAt: null,
  };
  const result = await recordAlerts(runtime.ctx, 'generic', [input]);
  const id = result.alerts[0]?.incident_id;
  expect(id, JSON.stringify(result)).toEqual(expect.any(String));
  if (severity !== 'critical') await patchIncident(id!, { severity });
  return id!;
}
async function patchIncident(id: string, body: JsonBody) {
  const res = await api('PATCH', `/api/v1/incidents/${id}`, { token: member.token, body });
  expect(res.status, JSON.stringify(await bodyOf(res.clone()))).toBe(200);
}
async function component(body: JsonBody): Promise<JsonBody> {
  const res = await api('POST', COMPONENTS, { token: admin.token, body });
  const answer = await bodyOf(res);
  expect(res.status, JSON.stringify(answer)).toBe(201);
  return answer;
}
const components = async () =>
  (await bodyOf(await api('GET', COMPONENTS, { token: viewer.token }))).components as JsonBody[];
const publicStatus = async () => bodyOf(await fresh('/api/v1/status'));
async function publish(incident: string, body: JsonBody, token = member.token) {
  const res = await api('POST', `/api/v1/incidents/${incident}/status-updates`, { token, body });
  const answer = await bodyOf(res);
  expect(res.status, JSON.stringify(answer)).toBe(201);
  return answer;
}
async function problems(res: Response): Promise<string[]> {
  const body = await bodyOf(res);
  expect(res.status, JSON.stringify(body)).toBe(400);
  expect(body.error.code).toBe('validation_failed');
  return body.error.details.map((d: { path: string }) => d.path);
}

describe('components', () => {
  it('are created, listed in page order, changed and removed by admins, and audited', async () => {
    const api1 = await component({ name: 'API', group: 'Platform', match: { service: 'api' }, position: 2 });
    expect(api1).toEqual({
      id: expect.any(String),
      name: 'API',
      group: 'Platform',
      match: { service: 'api' },
      position: 2,
      status: null,
      current_status: 'operational',
      created_at: expect.any(String),
      updated_at: expect.any(String),
    });
    const web = await component({ name: 'Website', match: { service: 'web' }, position: 1 });
    // Without a position, after every other one.
    const last = await component({ name: 'Billing', match: { service: 'billing' } });
    expect(last.position).toBe(3);
    expect(web.group).toBeNull();
    expect((await components()).map((c) => c.name)).toEqual(['Website', 'API', 'Billing']);

    const changed = await api('PATCH', `${COMPONENTS}/${api1.id}`, {
      token: admin.token,
      body: { name: 'Public API', group: null, position: 0 },
    });
    expect(await bodyOf(changed)).toMatchObject({
      name: 'Public API',
      group: null,
      position: 0,
      match: { service: 'api' },
    });
    expect((await components()).map((c) => c.name)).toEqual(['Public API', 'Website', 'Billing']);

    expect((await api('DELETE', `${COMPONENTS}/${web.id}`, { token: admin.token })).status).toBe(204);
    expect((await api('DELETE', `${COMPONENTS}/${web.id}`, { token: admin.token })).status).toBe(404);
    expect((await components()).map((c) => c.name)).toEqual(['Public API', 'Billing']);

    const audit = await bodyOf(
      await api('GET', '/api/v1/audit-log?entity=status_page_component', { token: admin.token }),
    );
    const actions = audit.entries
      .filter((e: JsonBody) => e.entity_id === web.id || e.entity_id === api1.id)
      .map((e: JsonBody) => `${e.action} ${e.actor.name}`);
    expect(actions.sort()).toEqual([
      'create Ada Admin',
      'create Ada Admin',
      'delete Ada Admin',
      'update Ada Admin',
    ]);
  });

  it('are refused with 400 and nothing stored when the input is not valid', async () => {
    const bad = (body: unknown) => api('POST', COMPONENTS, { token: admin.token, body });
    expect(await problems(await bad({ name: '', match: { a: 'b' } }))).toEqual(['name']);
    expect(await problems(await bad({ name: 'x'.repeat(101), match: { a: 'b' } }))).toEqual(['name']);
    expect(await problems(await bad({ name: 'API', match: {} }))).toEqual(['match']);
    expect(await problems(await bad({ name: 'API' }))).toEqual(['match']);
    expect(await problems(await bad({ name: 'API', match: { a: 1 } }))).toEqual(['match.a']);
    expect(await problems(await bad({ name: 'API', match: { a: 'b' }, status: 'broken' }))).toEqual([
      'status',
    ]);
    expect(await problems(await bad({ name: 'API', match: { a: 'b' }, position: 1.5 }))).toEqual([
      'position',
    ]);
    expect(await problems(await bad({ name: 'API', match: { a: 'b' }, colour: 'red' }))).toEqual(['']);
    expect(await components()).toEqual([]);
    const { id } = await component({ name: 'API', match: { a: 'b' } });
    const patch = (body: unknown) => api('PATCH', `${COMPONENTS}/${id}`, { token: admin.token, body });
    expect(await problems(await patch({}))).toEqual(['']);
    expect(await problems(await patch({ match: {} }))).toEqual(['match']);
    expect(
      (await api('PATCH', `${COMPONENTS}/not-a-uuid`, { token: admin.token, body: { name: 'x' } })).status,
    ).toBe(404);
    expect(
      (
        await api('PATCH', `${COMPONENTS}/00000000-0000-4000-8000-000000000000`, {
          token: admin.token,
          body: { name: 'x' },
        })
      ).status,
    ).toBe(404);
    expect((await components()).map((c) => c.name)).toEqual(['API']);
  });

  it('are read by viewers and written by admins only', async () => {
    const { id } = await component({ name: 'API', match: { a: 'b' } });
    for (const token of [member.token, viewer.token]) {
      const create = await api('POST', COMPONENTS, { token, body: { name: 'X', match: { a: 'b' } } });
      expect(create.status).toBe(403);
      expect((await api('PATCH', `${COMPONENTS}/${id}`, { token, body: { name: 'X' } })).status).toBe(403);
      expect((await api('DELETE', `${COMPONENTS}/${id}`, { token })).status).toBe(403);
    }
    expect((await api('GET', COMPONENTS, {})).status).toBe(401);
    expect((await components()).map((c) => c.name)).toEqual(['API']);
  });
});

describe('a component’s status', () => {
  it('follows the worst open incident whose alert carries every label of its match', async () => {
    const checkout = await component({ name: 'Checkout', match: { service: 'checkout', env: 'prod' } });
    const statusOf = async () => (await components()).find((c) => c.id === checkout.id)?.current_status;
    expect(await statusOf()).toBe('operational');
    // Half the labels, or the other service: not this component's incident.
    await incidentWith({ service: 'checkout', env: 'staging' });
    await incidentWith({ service: 'search', env: 'prod' });
    expect(await statusOf()).toBe('operational');

    const incident = await incidentWith({ service: 'checkout', env: 'prod', pod: 'checkout-7' }, 'low');
    expect(await statusOf()).toBe('degraded');
    await patchIncident(incident, { severity: 'medium' });
    expect(await statusOf()).toBe('degraded');
    await patchIncident(incident, { severity: 'high' });
    expect(await statusOf()).toBe('partial_outage');
    await patchIncident(incident, { severity: 'critical' });
    expect(await statusOf()).toBe('major_outage');
    // The worst wins; an acknowledged incident is still open.
    const minor = await incidentWith({ service: 'checkout', env: 'prod' }, 'low');
    await patchIncident(incident, { status: 'acknowledged' });
    expect(await statusOf()).toBe('major_outage');
    await patchIncident(incident, { status: 'resolved' });
    expect(await statusOf()).toBe('degraded');
    await patchIncident(minor, { status: 'resolved' });
    expect(await statusOf()).toBe('operational');
    expect((await publicStatus()).components).toEqual([
      { name: 'Checkout', group: null, status: 'operational' },
    ]);
  });

  it('is the one set by hand until it is set back to null', async () => {
    const db = await component({ name: 'Database', match: { team: 'db' } });
    await incidentWith({ team: 'db' }, 'high');
    expect((await publicStatus()).components[0].status).toBe('partial_outage');
    const set = (status: string | null) =>
      api('PATCH', `${COMPONENTS}/${db.id}`, { token: admin.token, body: { status } });
    expect(await bodyOf(await set('operational'))).toMatchObject({
      status: 'operational',
      current_status: 'operational',
    });
    expect((await publicStatus()).components[0].status).toBe('operational');
    expect(await bodyOf(await set('major_outage'))).toMatchObject({ current_status: 'major_outage' });
    expect((await publicStatus()).status).toBe('major_outage');
    expect(await bodyOf(await set(null))).toMatchObject({ status: null, current_status: 'partial_outage' });
    expect((await publicStatus()).components[0].status).toBe('partial_outage');
  });
});

describe('public updates', () => {
  it('are published by members, listed newest first, and recorded on the timeline', async () => {
    await component({ name: 'Checkout', match: { service: 'checkout' } });
    const incident = await incidentWith({ service: 'checkout' });
    const empty = await bodyOf(
      await api('GET', `/api/v1/incidents/${incident}/status-updates`, { token: viewer.token }),
    );
    expect(empty).toEqual({
      public_id: null,
      title: null,
      heading: 'Service disruption: Checkout',
      components: ['Checkout'],
      updates: [],
    });
    const first = await publish(incident, { status: 'investigating', body: 'Payments fail for some.' });
    expect(first).toEqual({
      id: expect.any(String),
      status: 'investigating',
      body: 'Payments fail for some.',
      created_at: expect.any(String),
      created_by: { id: member.id, name: 'Mia Member' },
    });
    await publish(
      incident,
      { status: 'identified', body: 'A bad deploy.', title: 'Payments failing' },
      admin.token,
    );
    const list = await bodyOf(
      await api('GET', `/api/v1/incidents/${incident}/status-updates`, { token: viewer.token }),
    );
    expect(list).toMatchObject({
      public_id: expect.any(String),
      title: 'Payments failing',
      heading: 'Payments failing',
    });
    expect(list.updates.map((u: JsonBody) => u.status)).toEqual(['identified', 'investigating']);

    const timeline = await bodyOf(
      await api('GET', `/api/v1/incidents/${incident}/timeline`, { token: viewer.token }),
    );
    const published = timeline.entries.filter((e: JsonBody) => e.type === 'status_update_published');
    expect(published.map((e: JsonBody) => e.data)).toEqual([
      { update_id: first.id, status: 'investigating' },
      { update_id: expect.any(String), status: 'identified' },
    ]);
    expect(published[0].actor).toMatchObject({ type: 'user', id: member.id, name: 'Mia Member' });
  });

  it('are refused with 400, 403 or 404 and nothing published', async () => {
    const incident = await incidentWith({ service: 'search' });
    const post = (body: unknown, token = member.token, id = incident) =>
      api('POST', `/api/v1/incidents/${id}/status-updates`, { token, body });
    expect(await problems(await post({ status: 'investigating', body: '   ' }))).toEqual(['body']);
    expect(await problems(await post({ status: 'investigating', body: 'x'.repeat(5001) }))).toEqual(['body']);
    expect(await problems(await post({ status: 'fixed', body: 'ok' }))).toEqual(['status']);
    expect(await problems(await post({ body: 'ok' }))).toEqual(['status']);
    expect(await problems(await post({ status: 'resolved', body: 'ok', title: '' }))).toEqual(['title']);
    expect((await post({ status: 'resolved', body: 'ok' }, viewer.token)).status).toBe(403);
    expect((await post({ status: 'resolved', body: 'ok' }, member.token, '999999')).status).toBe(404);
    expect((await post({ status: 'resolved', body: 'x'.repeat(5000) })).status).toBe(201);
    const list = await bodyOf(
      await api('GET', `/api/v1/incidents/${incident}/status-updates`, { token: viewer.token }),
    );
    expect(list.updates).toHaveLength(1);
  });
});

describe('the public page', () => {
  it('lists an incident once it has an update, while open, and for 7 days after its last update once resolved', async () => {
    const incident = await incidentWith({ service: 'search' });
    expect((await publicStatus()).incidents).toEqual([]);
    await publish(incident, { status: 'investigating', body: 'Search is slow.' });
    const [listed] = (await publicStatus()).incidents;
    expect(listed).toEqual({
      id: expect.any(String),
      heading: 'Service disruption',
      status: 'investigating',
      components: [],
      started_at: expect.any(String),
      updated_at: expect.any(String),
      updates: [{ status: 'investigating', body: 'Search is slow.', created_at: expect.any(String) }],
    });
    // An ongoing incident that affects no component still keeps the page from saying all is well.
    expect((await publicStatus()).status).toBe('degraded');
    await patchIncident(incident, { status: 'resolved' });
    await publish(incident, { status: 'resolved', body: 'Fixed.' });
    const resolved = await publicStatus();
    expect(resolved.status).toBe('operational');
    expect(resolved.incidents.map((i: JsonBody) => [i.id, i.status])).toEqual([[listed.id, 'resolved']]);
    const days = (n: number) => ({ ...runtime.ctx, now: () => new Date(Date.now() + n * 86_400_000) });
    expect((await readPublicStatus(days(6.9))).incidents.map((i) => i.id)).toEqual([listed.id]);
    expect((await readPublicStatus(days(7.1))).incidents).toEqual([]);
    // An incident still open stays however old its last update is.
    const open = await incidentWith({ service: 'search' });
    await publish(open, { status: 'monitoring', body: 'Watching.' });
    expect((await readPublicStatus(days(30))).incidents.map((i) => i.status)).toEqual(['monitoring']);
  });

  it('shows nothing internal: no incident title, description, alert, label value, person or id', async () => {
    await component({ name: 'Checkout', group: 'Shop', match: { service: 'checkout' } });
    const incident = await incidentWith(
      { service: 'checkout', customer: 'SECRET-LABEL-acme-corp' },
      'critical',
      'SECRET-ALERT db-primary-7 password=hunter2',
    );
    await patchIncident(incident, {
      title: 'SECRET-TITLE customer acme',
      description: 'SECRET-DESCRIPTION runbook',
    });
    const update = await publish(incident, {
      status: 'identified',
      body: 'Checkout is failing; a fix is rolling out.',
    });
    const { number } = await bodyOf(
      await api('GET', `/api/v1/incidents/${incident}`, { token: viewer.token }),
    );
    const alerts = await bodyOf(
      await api('GET', `/api/v1/incidents/${incident}/alerts`, { token: viewer.token }),
    );
    const secrets = [
      'SECRET',
      'hunter2',
      'acme',
      'db-primary-7',
      incident,
      update.id,
      member.id,
      'Mia Member',
      alerts.alerts[0].id,
      'INC-',
    ];
    const answers = {
      json: await fresh('/api/v1/status'),
      html: await fresh('/status'),
      feed: await fresh('/status/feed.atom'),
    };
    for (const [name, res] of Object.entries(answers)) {
      expect(res.status, name).toBe(200);
      const text = await res.text();
      expect(text, name).toContain('Checkout is failing; a fix is rolling out.');
      expect(text, name).toContain('Service disruption: Checkout');
      for (const secret of secrets) expect(text.includes(secret), `${name} shows ${secret}`).toBe(false);
      // The incident's number, as the console writes it (#12); a colour such as #12abcd is not one.
      expect(text, name).not.toMatch(new RegExp(`#${number}(?![0-9a-f])`, 'i'));
      expect(text, name).not.toMatch(/"number"/);
    }
  });

  it('answers anyone, without a session, with Cache-Control: public, max-age=30', async () => {
    await component({ name: 'API', match: { service: 'api' } });
    const json = await fresh('/api/v1/status');
    expect(json.status).toBe(200);
    expect(json.headers.get('cache-control')).toBe('public, max-age=30');
    expect(await bodyOf(json)).toMatchObject({
      title: 'Service status',
      status: 'operational',
      components: [{ name: 'API', group: null, status: 'operational' }],
      incidents: [],
    });
    const page = await fresh('/status');
    expect(page.status).toBe(200);
    expect(page.headers.get('cache-control')).toBe('public, max-age=30');
    expect(page.headers.get('content-type')).toMatch(/^text\/html/);
    const html = await page.text();
    expect(html).toContain('<title>Service status</title>');
    expect(html).toContain('All systems operational');
    expect(html).toContain('href="/status/feed.atom"');
    expect(html).not.toContain('<script');
    const feed = await fresh('/status/feed.atom');
    expect(feed.status).toBe(200);
    expect(feed.headers.get('cache-control')).toBe('public, max-age=30');
    expect(feed.headers.get('content-type')).toBe('application/atom+xml; charset=utf-8');
    expect(await feed.text()).toMatch(/^<\?xml[^>]*\?>\s*<feed xmlns="http:\/\/www.w3.org\/2005\/Atom">/);
    // A session cookie or token changes nothing, and none is needed.
    const asAdmin = await api('GET', '/api/v1/status', { token: admin.token });
    expect(asAdmin.headers.get('cache-control')).toBe('public, max-age=30');
  });

  it('escapes what people typed, in the page and in the feed', async () => {
    await component({ name: '<b>Shop</b>', match: { service: 'shop' } });
    const incident = await incidentWith({ service: 'shop' });
    await publish(incident, {
      status: 'investigating',
      body: 'Look: <img src=x onerror="alert(1)"> ]]> & more\nsecond line',
      title: 'Orders <script>alert(2)</script>',
    });
    const html = await (await fresh('/status')).text();
    expect(html).not.toContain('<img src=x');
    expect(html).not.toContain('<script>');
    expect(html).not.toContain('<b>Shop</b>');
    expect(html).toContain('&lt;img src=x onerror=&quot;alert(1)&quot;&gt;');
    expect(html).toContain('Orders &lt;script&gt;alert(2)&lt;/script&gt;');
    const feed = await (await fresh('/status/feed.atom')).text();
    expect(feed).toContain(
      '<![CDATA[Look: &lt;img src=x onerror=&quot;alert(1)&quot;&gt; ]]&gt; &amp; more<br>second line]]>',
    );
    expect(feed).toContain('<![CDATA[Investigating: Orders &lt;script&gt;alert(2)&lt;/script&gt;]]>');
  });

  it('takes its title from the status_page_title setting', async () => {
    const set = (value: unknown, token = admin.token) =>
      api('PATCH', '/api/v1/settings', { token, body: { status_page_title: value } });
    expect(await problems(await set(''))).toEqual(['status_page_title']);
    expect(await problems(await set('x'.repeat(101)))).toEqual(['status_page_title']);
    expect((await set('Acme', member.token)).status).toBe(403);
    expect(
      (await bodyOf(await api('GET', '/api/v1/settings', { token: admin.token }))).status_page_title,
    ).toBe('Service status');
    expect((await set('Acme & Co status')).status).toBe(200);
    expect(
      (await bodyOf(await api('GET', '/api/v1/settings', { token: admin.token }))).status_page_title,
    ).toBe('Acme & Co status');
    expect((await publicStatus()).title).toBe('Acme & Co status');
    expect(await (await fresh('/status')).text()).toContain('<h1>Acme &amp; Co status</h1>');
    expect(await (await fresh('/status/feed.atom')).text()).toContain('Acme &amp; Co status');
    expect((await set('Service status')).status).toBe(200);
  });
});

describe('the public status’s cost and failures', () => {
  it('is computed at most once per 10 s per process, whatever the path or query string', async () => {
    await component({ name: 'API', match: { service: 'api' } });
    expect((await publicStatus()).components.map((c: JsonBody) => c.name)).toEqual(['API']);
    // A change straight in the database: nothing in this process knows of it.
    await runtime.sql`insert into status_page_components (name, match) values ('Added', '{"a":"b"}')`;
    const paths = ['/api/v1/status?nocache=1', '/status?x=2', '/status/feed.atom?y=3', '/api/v1/status?z'];
    for (const path of paths) {
      const text = await (await app.request(path)).text();
      if (path.includes('feed')) continue; // The feed names no component.
      expect(text, path).toContain('API');
      expect(text, path).not.toContain('Added');
    }
    // Short of the 10 s by more than the real time this test takes.
    aheadMs += PUBLIC_STATUS_TTL_MS - 2_000;
    expect((await bodyOf(await app.request('/api/v1/status?again'))).components).toHaveLength(1);
    aheadMs += 2_000;
    expect(
      (await bodyOf(await app.request('/api/v1/status'))).components.map((c: JsonBody) => c.name),
    ).toEqual(['API', 'Added']);
    expect(await (await app.request('/status?x=2')).text()).toContain('Added');
  });

  it('names each listed incident’s components from its alerts’ labels', async () => {
    await component({ name: 'Checkout', match: { service: 'checkout', env: 'prod' }, position: 1 });
    await component({ name: 'Search team', match: { team: 'search' }, position: 2 });
    await component({ name: 'Staging', match: { service: 'checkout', env: 'staging' }, position: 3 });
    await component({ name: 'Other', match: { pod: 'other' }, position: 4 });
    const open = await incidentWith({ service: 'checkout', env: 'prod', team: 'search', pod: 'p-1' });
    await publish(open, { status: 'investigating', body: 'Slow.' });
    const resolved = await incidentWith({ service: 'checkout', env: 'staging' });
    await publish(resolved, { status: 'resolved', body: 'Fixed.' });
    await patchIncident(resolved, { status: 'resolved' });
    const { incidents } = await publicStatus();
    expect(incidents.map((i: JsonBody) => [i.status, i.components, i.heading])).toEqual([
      ['investigating', ['Checkout', 'Search team'], 'Service disruption: Checkout, Search team'],
      ['resolved', ['Staging'], 'Service disruption: Staging'],
    ]);
  });

  /** An app on its own clock whose database can be made to fail. */
  function appWithDatabase() {
    const working = runtime.ctx.sql;
    const down = (() => Promise.reject(new Error('database down'))) as unknown as ServiceContext['sql'];
    const ctx: ServiceContext = { ...runtime.ctx, now: appClock };
    const own = createApp({ ctx, ready: runtime.ready, config: runtime.config });
    return {
      request: (path: string) => own.request(path),
      fail: () => {
        ctx.sql = down;
      },
      recover: () => {
        ctx.sql = working;
      },
    };
  }

  it('answers an error on /api/v1/status that no cache keeps', async () => {
    const own = appWithDatabase();
    own.fail();
    const res = await own.request('/api/v1/status');
    expect(res.status).toBeGreaterThanOrEqual(500);
    expect(res.headers.get('cache-control') ?? '').not.toMatch(/public|max-age/);
    expect((await bodyOf(res)).error).toEqual(expect.objectContaining({ code: expect.any(String) }));
    own.recover();
    const ok = await own.request('/api/v1/status');
    expect(ok.status).toBe(200);
    expect(ok.headers.get('cache-control')).toBe('public, max-age=30');
  });

  it('serves /status from the last good answer while the database fails, else a 503 page', async () => {
    await component({ name: 'Checkout', match: { service: 'checkout' } });
    const own = appWithDatabase();
    own.fail();
    const none = await own.request('/status');
    expect(none.status).toBe(503);
    expect(none.headers.get('cache-control')).toBe('no-store');
    expect(none.headers.get('retry-after')).toBe('30');
    expect(none.headers.get('content-type')).toMatch(/^text\/html/);
    expect(await none.text()).toContain('The current status could not be read');

    own.recover();
    const good = await own.request('/status');
    expect(good.status).toBe(200);
    const goodHtml = await good.text();
    expect(goodHtml).not.toContain('may be out of date');
    const generatedAt = /Updated <time datetime="([^"]+)"/.exec(goodHtml)?.[1];
    expect(generatedAt).toEqual(expect.any(String));

    own.fail();
    expireKept();
    const stale = await own.request('/status');
    expect(stale.status).toBe(200);
    expect(stale.headers.get('cache-control')).toBe('no-store');
    const staleHtml = await stale.text();
    expect(staleHtml).toContain('This page may be out of date');
    expect(staleHtml).toContain(`as of <time datetime="${generatedAt}">`);
    expect(staleHtml).toContain('<span>Checkout</span>');
    // The JSON says it failed rather than answering old data as current.
    expect((await own.request('/api/v1/status')).status).toBeGreaterThanOrEqual(500);
    own.recover();
    const back = await own.request('/status');
    expect(back.headers.get('cache-control')).toBe('public, max-age=30');
    expect(await back.text()).not.toContain('may be out of date');
  });
});

describe('the public page’s contents', () => {
  it('still shows an incident as ongoing when it was resolved internally before its public resolution', async () => {
    const incident = await incidentWith({ service: 'search' });
    await publish(incident, { status: 'identified', body: 'A bad index.' });
    await patchIncident(incident, { status: 'resolved' });
    const before = await publicStatus();
    expect(before.incidents.map((i: JsonBody) => i.status)).toEqual(['identified']);
    expect(before.status).toBe('degraded');
    const html = await (await fresh('/status')).text();
    expect(html).toContain('Some systems are degraded');
    expect(html).not.toContain('No incidents are ongoing.');
    await publish(incident, { status: 'resolved', body: 'Fixed.' });
    expect((await publicStatus()).status).toBe('operational');
  });

  it('refuses control characters in what it publishes, with 400 and nothing stored', async () => {
    const incident = await incidentWith({ service: 'search' });
    const post = (body: unknown) =>
      api('POST', `/api/v1/incidents/${incident}/status-updates`, { token: member.token, body });
    for (const bad of [
      'a\u0000b',
      'bell\u0007',
      'esc\u001b[1m',
      'x\uFFFE',
      'x\uFFFF',
      'lone \uD800 high',
      'lone \uDC00 low',
    ]) {
      const res = await post({ status: 'investigating', body: bad });
      const answer = await bodyOf(res);
      expect(res.status, JSON.stringify(bad)).toBe(400);
      expect(answer.error.details, JSON.stringify(answer)).toEqual([
        expect.objectContaining({ path: 'body', message: expect.stringMatching(/control characters|NUL/) }),
      ]);
      expect(await problems(await post({ status: 'investigating', body: 'ok', title: `T ${bad}` }))).toEqual([
        'title',
      ]);
    }
    // Tab, line breaks and paired surrogates (an emoji) are text.
    await publish(incident, { status: 'investigating', body: 'a\tb\r\nc 🔥', title: 'Search 🔥' });
    const bad = (body: unknown) => api('POST', COMPONENTS, { token: admin.token, body });
    expect(await problems(await bad({ name: 'API\u0001', match: { a: 'b' } }))).toEqual(['name']);
    expect(await problems(await bad({ name: 'API', group: 'G\u000cH', match: { a: 'b' } }))).toEqual([
      'group',
    ]);
    expect(
      await problems(
        await api('PATCH', '/api/v1/settings', {
          token: admin.token,
          body: { status_page_title: 'S\u0008' },
        }),
      ),
    ).toEqual(['status_page_title']);
    expect(await components()).toEqual([]);
    const list = await bodyOf(
      await api('GET', `/api/v1/incidents/${incident}/status-updates`, { token: viewer.token }),
    );
    expect(list.updates.map((u: JsonBody) => u.body)).toEqual(['a\tb\r\nc 🔥']);
  });

  it('keeps the feed well-formed XML when a stored text holds a control character', async () => {
    const incident = await incidentWith({ service: 'search' });
    await publish(incident, { status: 'investigating', body: 'clean' });
    // Written before the rule, or by another path: the feed cleans what the schema would refuse.
    await runtime.sql`
      update status_page_updates set body = ${'bad\u0001\u001f\uFFFEend'}
      where incident_id = ${incident}`;
    await runtime.sql`update status_page_incidents set title = ${'T\u000bitle'} where incident_id = ${incident}`;
    const feed = await (await fresh('/status/feed.atom')).text();
    expect(feed).toContain('<![CDATA[badend]]>');
    expect(feed).toContain('Investigating: Title');
    expect(feed).not.toMatch(NOT_XML_TEXT);
  });

  it('takes the feed’s links from the configuration only, never from the Host header', async () => {
    const incident = await incidentWith({ service: 'search' });
    await publish(incident, { status: 'investigating', body: 'Slow.' });
    const { incidents } = await publicStatus();
    const publicId = incidents[0].id;
    expect(runtime.config.publicUrl).toBeUndefined();
    const feed = await (
      await fresh('http://evil.example/status/feed.atom', { headers: { host: 'evil.example' } })
    ).text();
    expect(feed).not.toContain('evil.example');
    // Without PUBLIC_URL: the address the server announces at start.
    const base = `http://localhost:${runtime.config.port ?? 8080}/status`;
    expect(feed).toContain(`<link href="${base}#incident-${publicId}"/>`);
    expect(feed).toContain(`<link rel="self" href="${base}/feed.atom"/>`);

    const behindProxy = createApp({
      ctx: { ...runtime.ctx, now: appClock },
      ready: runtime.ready,
      config: { ...runtime.config, publicUrl: 'https://status.example.com/' },
    });
    const proxied = await (
      await behindProxy.request('http://evil.example/status/feed.atom', { headers: { host: 'evil.example' } })
    ).text();
    expect(proxied).not.toContain('evil.example');
    expect(proxied).toContain('<id>https://status.example.com/status</id>');
    expect(proxied).toContain(`<link href="https://status.example.com/status#incident-${publicId}"/>`);
    // An entry's id names the incident's public id and the update's time: the same on every read.
    const entryIds = (text: string) =>
      [...text.matchAll(/<entry>[\s\S]*?<id>([^<]+)<\/id>/g)].map((m) => m[1]);
    expect(entryIds(proxied)).toHaveLength(1);
    expect(entryIds(proxied)[0]).toMatch(
      new RegExp(`^https://status\\.example\\.com/status#incident-${publicId}-update-\\d+$`),
    );
    const again = await (await behindProxy.request('/status/feed.atom')).text();
    expect(entryIds(again)).toEqual(entryIds(proxied));
  });

  it('writes its style sheet as CSS, not as escaped text', async () => {
    const html = await (await fresh('/status')).text();
    expect(html).toContain('font-family:system-ui,-apple-system,"Segoe UI",sans-serif');
    expect(html).not.toContain('&quot;Segoe UI&quot;');
  });

  it('shows an incident’s newest 20 updates, and the feed the newest 50 entries', async () => {
    const first = await incidentWith({ service: 'a' });
    const second = await incidentWith({ service: 'b' });
    const third = await incidentWith({ service: 'c' });
    for (const incident of [first, second, third])
      await publish(incident, { status: 'investigating', body: 'u0' });
    // 24 more each, a minute apart, straight in the database.
    for (const [n, incident] of [first, second, third].entries()) {
      await runtime.sql`
        insert into status_page_updates (incident_id, status, body, created_at)
        select ${incident}, 'monitoring', 'u' || g, now() + (g * 3 + ${n}) * interval '1 minute'
        from generate_series(1, 24) g`;
    }
    const { incidents } = await publicStatus();
    expect(incidents).toHaveLength(3);
    for (const listed of incidents) {
      expect(listed.updates).toHaveLength(MAX_PUBLIC_UPDATES_PER_INCIDENT);
      expect(listed.updates[0].body).toBe('u24');
      expect(listed.updates[19].body).toBe('u5');
    }
    const feed = await (await fresh('/status/feed.atom')).text();
    const entries = [...feed.matchAll(/<content type="html"><!\[CDATA\[(u\d+)\]\]>/g)].map((m) => m[1]);
    expect(entries).toHaveLength(MAX_FEED_ENTRIES);
    expect(entries.slice(0, 3)).toEqual(['u24', 'u24', 'u24']);
  });

  it('lists the ongoing incidents first, before the limit of 50', async () => {
    const ongoing = await incidentWith({ service: 'old' });
    await publish(ongoing, { status: 'monitoring', body: 'Still watching.' });
    await runtime.sql`
      update status_page_incidents set last_published_at = now() - interval '6 days',
        first_published_at = now() - interval '6 days' where incident_id = ${ongoing}`;
    await runtime.sql`
      update status_page_updates set created_at = now() - interval '6 days' where incident_id = ${ongoing}`;
    // 50 incidents resolved since, with their public resolution: each newer than the ongoing one.
    const resolved: string[] = [];
    for (let i = 0; i < MAX_LISTED_INCIDENTS; i += 1) resolved.push(await incidentWith({ service: `r${i}` }));
    await runtime.sql`update incidents set status = 'resolved', resolved_at = now() where id = any(${resolved}::uuid[])`;
    await runtime.sql`
      insert into status_page_incidents (incident_id, first_published_at, last_published_at)
      select id, now(), now() from unnest(${resolved}::uuid[]) as r (id)`;
    await runtime.sql`
      insert into status_page_updates (incident_id, status, body, created_at)
      select id, 'resolved', 'Fixed.', now() from unnest(${resolved}::uuid[]) as r (id)`;
    const status = await publicStatus();
    expect(status.incidents).toHaveLength(MAX_LISTED_INCIDENTS);
    expect(status.incidents[0]).toMatchObject({
      status: 'monitoring',
      updates: [{ body: 'Still watching.' }],
    });
    expect(status.incidents.slice(1).every((i: JsonBody) => i.status === 'resolved')).toBe(true);
    expect(status.status).toBe('degraded');
  });
});
