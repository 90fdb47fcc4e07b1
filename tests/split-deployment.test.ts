// The split deployment (infra/README.md; `pnpm start:split`, infra/local): private PostgreSQL, Redis
// primary + replica with AOF behind Sentinel, migrations as their own step, ingest / api / chat /
// worker as four processes, nginx in front with the shipped infra/nginx/firebreak.conf. Everything
// below goes through nginx's port only, as a user or a monitoring tool would.
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { bodyOf, type FakeChatApi, startFakeChatApi, waitFor } from '@firebreak/testing';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { repoRoot } from '../infra/local/apps';
import { SENTINEL_MASTER, withRedis } from '../infra/local/redis';
import { startTestSplitDeployment, type TestSplitDeployment } from './support/split-deployment';

let chatApi: FakeChatApi;
let deployment: TestSplitDeployment;
let stopped = false;
let token: string;

beforeAll(async () => {
  chatApi = await startFakeChatApi();
  deployment = await startTestSplitDeployment({
    appEnv: { CHAT_BOT_TOKEN: chatApi.botToken, CHAT_API_URL: chatApi.url },
  });
  // Four apps compiling TypeScript at start on a busy 2-core CI machine.
}, 240_000);
afterAll(async () => {
  if (deployment && !stopped) await deployment.stop();
  deployment?.removeData();
  await chatApi?.close();
});

const url = (path: string) => `${deployment.url}${path}`;
const authed = (init: RequestInit = {}): RequestInit => ({
  ...init,
  headers: { authorization: `Bearer ${token}`, 'content-type': 'application/json', ...init.headers },
});
/** The request id is logged by whichever app answered: it shows where nginx sent the request. */
const answeredBy = (requestId: string) =>
  ['ingest', 'api', 'chat', 'worker'].filter((app) =>
    deployment.linesOf(app).some((l) => l.includes(requestId)),
  );

describe('the split deployment behind nginx', () => {
  it('answers /health itself and passes /ready to the API, which sees the database and the store', async () => {
    const health = await fetch(url('/health'), { headers: { 'x-request-id': 'split-health-1' } });
    expect(health.status).toBe(200);
    expect(await bodyOf(health)).toEqual({ status: 'ok' });

    const ready = await fetch(url('/ready'), { headers: { 'x-request-id': 'split-ready-1' } });
    expect(await bodyOf(ready)).toEqual({ status: 'ok', database: 'ok', redis: 'ok' });
    await waitFor(() => answeredBy('split-ready-1').length > 0, { what: 'the /ready request in an app log' });
    expect(answeredBy('split-ready-1')).toEqual(['api']);
    expect(answeredBy('split-health-1')).toEqual([]);
  });

  it('keeps the store durable: AOF on primary and replica, the replica in sync, Sentinel naming the primary', async () => {
    const { ports, password } = deployment.store;
    for (const port of [ports.primary, ports.replica]) {
      expect(await withRedis(port, password, (r) => r.config('GET', 'appendonly'))).toEqual([
        'appendonly',
        'yes',
      ]);
    }
    const replication = await withRedis(ports.replica, password, (r) => r.info('replication'));
    expect(replication).toContain('role:slave');
    expect(replication).toContain(`master_port:${ports.primary}`);
    expect(replication).toContain('master_link_status:up');
    const named = await withRedis(ports.sentinels[0]!, password, (r) =>
      r.call('SENTINEL', 'GET-MASTER-ADDR-BY-NAME', SENTINEL_MASTER),
    );
    expect(named).toEqual(['127.0.0.1', String(ports.primary)]);
  });

  it('lets the first admin, whose login was printed at start, log in', async () => {
    expect(deployment.admin?.email).toBe('admin@localhost');
    const login = await fetch(url('/api/v1/auth/login'), {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ email: deployment.admin?.email, password: deployment.admin?.password }),
    });
    expect(login.status).toBe(200);
    const body = await bodyOf(login);
    expect(body.user).toMatchObject({ email: 'admin@localhost', role: 'admin' });
    token = body.token;
  });

  it('turns a webhook alert into an incident with a chat channel, and acknowledges it through the API', {
    timeout: 60_000,
  }, async () => {
    const sent = await fetch(url('/api/v1/webhooks/generic'), {
      method: 'POST',
      headers: { 'content-type': 'application/json', 'x-request-id': 'split-alert-1' },
      body: JSON.stringify({
        alerts: [
          {
            title: 'Disk almost full on db-1',
            severity: 'critical',
            external_id: 'disk-db-1',
            labels: { host: 'db-1' },
          },
        ],
      }),
    });
    expect(sent.status).toBe(200);
    const intake = await bodyOf(sent);
    expect(intake).toMatchObject({ received: 1, created: 1, incidents_created: 1 });
    const incidentId: string = intake.alerts[0].incident_id;
    await waitFor(() => answeredBy('split-alert-1').length > 0, { what: 'the webhook in an app log' });
    expect(answeredBy('split-alert-1')).toEqual(['ingest']);

    const list = await bodyOf(await fetch(url('/api/v1/incidents?status=triggered'), authed()));
    expect(list.incidents).toEqual([
      expect.objectContaining({
        id: incidentId,
        title: 'Disk almost full on db-1',
        status: 'triggered',
        source: 'alert',
      }),
    ]);

    // ingest committed the outbox row, the worker process relayed it to Redis (found through
    // Sentinel), the chat process took the job and created the channel on the chat API.
    const incident = await waitFor(
      async () => {
        const current = await bodyOf(await fetch(url(`/api/v1/incidents/${incidentId}`), authed()));
        return current.chat_channel ? current : undefined;
      },
      { timeoutMs: 30_000, intervalMs: 200, what: "the incident's chat channel" },
    );
    const channel = chatApi.channel(incident.chat_channel.id);
    expect(channel?.name).toBe(incident.chat_channel.name);
    expect(channel?.name).toMatch(new RegExp(`^inc-${incident.number}-disk-almost-full-on-db-1`));

    const acknowledged = await fetch(
      url(`/api/v1/incidents/${incidentId}`),
      authed({ method: 'PATCH', body: JSON.stringify({ status: 'acknowledged' }) }),
    );
    expect(acknowledged.status).toBe(200);
    expect(await bodyOf(acknowledged)).toMatchObject({ id: incidentId, status: 'acknowledged' });
    const timeline = await bodyOf(await fetch(url(`/api/v1/incidents/${incidentId}/timeline`), authed()));
    expect(timeline.entries.map((entry: { type: string }) => entry.type)).toEqual(
      expect.arrayContaining(['incident_created', 'chat_channel_created', 'status_changed']),
    );
  });

  it('lets an incident attachment of several MiB through nginx to the API, and refuses a body over 11 MiB itself', async () => {
    const created = await fetch(
      url('/api/v1/incidents'),
      authed({
        method: 'POST',
        body: JSON.stringify({ title: 'Attachment through the proxy', severity: 'low' }),
      }),
    );
    expect(created.status).toBe(201);
    const incident = await bodyOf(created);
    const upload = (bytes: number) => {
      const form = new FormData();
      form.set('file', new Blob([new Uint8Array(bytes).fill(97)]), 'graph.txt');
      return fetch(url(`/api/v1/incidents/${incident.id}/attachments`), {
        method: 'POST',
        headers: { authorization: `Bearer ${token}` },
        body: form,
      });
    };
    const accepted = await upload(3 * 1024 * 1024);
    expect(accepted.status).toBe(201);
    expect(await bodyOf(accepted)).toMatchObject({ size: 3 * 1024 * 1024, content_type: 'text/plain' });
    // Above nginx's own limit: nginx answers, in the API's JSON envelope.
    const refused = await upload(12 * 1024 * 1024);
    expect(refused.status).toBe(413);
    expect((await bodyOf(refused)).error).toMatchObject({
      code: 'payload_too_large',
      message: expect.stringContaining('11 MiB for an incident attachment'),
    });
    // Only the upload route takes that much: 5 MiB anywhere else in the API is nginx's own 413 too.
    const login = await fetch(url('/api/v1/auth/login'), {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ email: 'x@example.com', password: 'y'.repeat(5 * 1024 * 1024) }),
    });
    expect(login.status).toBe(413);
    // nginx's message, not the API's (which names its own 262144-byte limit).
    expect((await bodyOf(login)).error).toMatchObject({
      code: 'payload_too_large',
      message: expect.stringContaining('the proxy accepts on this path (1 MiB'),
    });
  });

  // After the webhook test, whose incident list expects that alert's incident alone.
  it("sends keyed intake to ingest: an alert at an integration's own URL is recorded under it", async () => {
    const created = await fetch(
      url('/api/v1/integrations'),
      authed({ method: 'POST', body: JSON.stringify({ name: 'Split keyed intake', type: 'generic' }) }),
    );
    expect(created.status).toBe(201);
    const integration = await bodyOf(created);
    // PUBLIC_URL is nginx's URL, so the URL handed to senders is the proxy's.
    expect(integration.intake_url).toBe(url(`/api/v1/intake/${integration.key}`));

    const sent = await fetch(integration.intake_url, {
      method: 'POST',
      headers: { 'content-type': 'application/json', 'x-request-id': 'split-intake-1' },
      body: JSON.stringify({
        alerts: [
          { title: 'Queue backlog on worker-2', severity: 'warning', external_id: 'backlog-worker-2' },
        ],
      }),
    });
    expect(sent.status).toBe(200);
    const intake = await bodyOf(sent);
    expect(intake).toMatchObject({ received: 1, created: 1 });
    await waitFor(() => answeredBy('split-intake-1').length > 0, { what: 'the keyed intake in an app log' });
    expect(answeredBy('split-intake-1')).toEqual(['ingest']);
    // The key is the sender's only credential: nginx's access log keeps its first 4 characters, as
    // the apps do, and no process logs it whole.
    const proxied = await waitFor(
      () => deployment.linesOf('nginx').find((line) => line.includes('split-intake-1')),
      { what: "the keyed intake in nginx's access log" },
    );
    expect(JSON.parse(proxied).uri).toBe(`/api/v1/intake/${integration.key.slice(0, 4)}…`);
    for (const name of ['nginx', 'ingest', 'api', 'chat', 'worker']) {
      expect(deployment.linesOf(name).filter((line) => line.includes(integration.key))).toEqual([]);
    }

    const alerts = await bodyOf(await fetch(url('/api/v1/alerts'), authed()));
    expect(alerts.alerts).toContainEqual(
      expect.objectContaining({
        id: intake.alerts[0].id,
        title: 'Queue backlog on worker-2',
        integration_id: integration.id,
      }),
    );
    const after = await bodyOf(await fetch(url(`/api/v1/integrations/${integration.id}`), authed()));
    expect(after.last_alert_at).not.toBeNull();
  });

  it("keeps only the first 4 characters of a page's token in nginx's access log, link and call alike", async () => {
    // A token of the right shape; the API refuses it (a bad signature, no Twilio), and nginx logs it anyway.
    const secret = 'Zq7wXpage0token0never0logged0whole0000000000000000000000000000000000';
    const requests = [
      { id: 'split-page-link-1', path: `/api/v1/page/${secret}`, logged: '/api/v1/page/Zq7w…' },
      {
        id: 'split-page-voice-1',
        path: `/api/v1/paging/twilio/voice/${secret}/gather`,
        logged: '/api/v1/paging/twilio/voice/Zq7w…/gather',
      },
    ];
    for (const request of requests) {
      const answer = await fetch(url(request.path), {
        method: 'POST',
        headers: { 'x-request-id': request.id, 'content-type': 'application/x-www-form-urlencoded' },
        body: 'Digits=1',
      });
      expect(answer.status).toBeGreaterThanOrEqual(400);
      const proxied = await waitFor(
        () => deployment.linesOf('nginx').find((line) => line.includes(request.id)),
        { what: `${request.id} in nginx's access log` },
      );
      expect(JSON.parse(proxied).uri).toBe(request.logged);
    }
    for (const name of ['nginx', 'ingest', 'api', 'chat', 'worker']) {
      expect(deployment.linesOf(name).filter((line) => line.includes(secret))).toEqual([]);
    }
  });

  it('sends chat requests to the chat process', async () => {
    const answer = await fetch(url('/api/v1/chat/commands'), {
      method: 'POST',
      headers: { 'content-type': 'application/x-www-form-urlencoded', 'x-request-id': 'split-chat-1' },
      body: 'command=%2Fincident&text=help',
    });
    // No signing secret is configured, so the adapter refuses it; what matters is who refused.
    expect(answer.status).toBeGreaterThanOrEqual(400);
    await waitFor(() => answeredBy('split-chat-1').length > 0, { what: 'the chat request in an app log' });
    expect(answeredBy('split-chat-1')).toEqual(['chat']);
  });

  it('serves the web UI at /', async () => {
    const page = await fetch(url('/'));
    expect(page.status).toBe(200);
    expect(page.headers.get('content-type')).toContain('text/html');
    expect(await page.text()).toBe(readFileSync(join(repoRoot, 'apps/web/dist/index.html'), 'utf8'));
  });

  it('stops in reverse order, every process exiting cleanly', { timeout: 120_000 }, async () => {
    stopped = true;
    const report = await deployment.stop();
    expect(report.map((p) => p.name)).toEqual([
      'nginx',
      'ingest',
      'api',
      'chat',
      'worker',
      'sentinel-1',
      'redis-replica',
      'redis-primary',
      'postgres',
    ]);
    expect(report.filter((p) => !p.clean)).toEqual([]);
    for (const app of ['ingest', 'api', 'chat', 'worker']) {
      expect(deployment.linesOf(app).some((line) => line.includes('"msg":"stopped"'))).toBe(true);
    }
  });
});
