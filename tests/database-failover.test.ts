// A PostgreSQL failover seen by a sender and by the people on call (docs/decisions.md#postgresql-failover):
// DATABASE_URL lists a primary and its synchronous standby; the primary is killed (SIGKILL, its
// backends with it) while a sender retries like Alertmanager and an escalation step falls due, then the
// standby is promoted. Without a restart the service takes alerts again on the new primary, stores the
// one sent during the failover once, keeps the one acknowledged before it, and fires the step due in
// between once. Both servers are private ones; the shared one is never touched.
import { createSql, migrate } from '@firebreak/db';
import { createTestRuntime, type TestRuntime } from '@firebreak/runtime/testing';
import { createServerApp } from '@firebreak/server';
import { createIncident } from '@firebreak/services';
import { PrivatePostgresPair, waitFor } from '@firebreak/testing';
import { type RunningWorker, startWorker } from '@firebreak/worker';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { defaultTwoTierPolicy, firedSteps } from './support/escalation';

const TIER_SECONDS = 2;

let pair: PrivatePostgresPair;
let runtime: TestRuntime;
let worker: RunningWorker;
let app: ReturnType<typeof createServerApp>;
let incidentId: string;
let readyDuring: number;
const answers: { before: number[]; during: number[] } = { before: [], during: [] };

const alert = (externalId: string) =>
  JSON.stringify({
    alerts: [{ title: `Disk full ${externalId}`, severity: 'info', external_id: externalId }],
  });

async function post(externalId: string): Promise<number> {
  const res = await app.request('/api/v1/webhooks/generic', {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: alert(externalId),
  });
  await res.arrayBuffer();
  return res.status;
}

/** Delivers like Alertmanager: a 5xx answer is retried, a 200 ends it. */
async function deliver(externalId: string, statuses: number[]): Promise<void> {
  for (;;) {
    const status = await post(externalId);
    statuses.push(status);
    if (status < 500) return;
    await new Promise((resolve) => setTimeout(resolve, 250));
  }
}

beforeAll(async () => {
  pair = await PrivatePostgresPair.start(async (primary) => {
    const setup = createSql(primary.url(), { max: 1 });
    await migrate(setup);
    await setup.end();
  });
  runtime = await createTestRuntime({ databaseUrl: pair.url() });
  app = createServerApp({ ctx: runtime.ctx, ready: runtime.ready, config: runtime.config });
  worker = await startWorker(runtime.ctx, {
    redis: runtime.redisConfig,
    ai: runtime.config.ai,
    intervalMs: 250,
  });
  await defaultTwoTierPolicy(runtime.ctx, TIER_SECONDS);

  await deliver('before', answers.before);
  const incident = await createIncident(
    runtime.ctx,
    { type: 'user', name: 'tester' },
    { title: 'Checkout down', severity: 'critical' },
  );
  incidentId = incident.id;
  await waitFor(async () => (await firedSteps(runtime.ctx, incidentId)).length === 1, {
    timeoutMs: 10_000,
    what: 'tier 1',
  });

  // Tier 2 falls due while no server takes writes.
  await pair.primary.kill();
  const during = deliver('during', answers.during);
  await new Promise((resolve) => setTimeout(resolve, (TIER_SECONDS + 1) * 1000));
  readyDuring = (await app.request('/ready')).status;
  await pair.promoteStandby();
  await during;
  await waitFor(async () => (await firedSteps(runtime.ctx, incidentId)).length >= 2, {
    timeoutMs: 20_000,
    what: 'tier 2 after the failover',
  });
  // Time for a second firing or a second relay of the same page to show, were there one.
  await new Promise((resolve) => setTimeout(resolve, 2000));
}, 120_000);

afterAll(async () => {
  await worker?.stop();
  await runtime?.cleanup();
  await pair?.destroy();
});

const count = async (query: PromiseLike<ReadonlyArray<Record<string, unknown>>>) =>
  Number((await query)[0]?.n);

describe('a failover of the database under a running service', () => {
  it('refuses alerts while no server takes writes, then takes the retried one and stores it once', async () => {
    expect(answers.during[0]).toBe(500);
    expect(answers.during.at(-1)).toBe(200);
    const stored = runtime.sql`select count(*)::int as n from alerts where external_id = 'during'`;
    expect(await count(stored)).toBe(1);
  });

  it('keeps the alert acknowledged before the primary died (the standby had it on disk)', async () => {
    expect(answers.before).toEqual([200]);
    expect(await count(runtime.sql`select count(*)::int as n from alerts where external_id = 'before'`)).toBe(
      1,
    );
  });

  it('fires the escalation step that fell due during the failover once, after it', async () => {
    expect(await firedSteps(runtime.ctx, incidentId)).toEqual(['tier 1: First', 'tier 2: Second']);
    const [step] = await runtime.sql<{ late_ms: number }[]>`
      select extract(epoch from fired_at - due_at) * 1000 as late_ms
      from escalation_steps where incident_id = ${incidentId} and tier = 1`;
    expect(Number(step!.late_ms)).toBeGreaterThan(0); // fired after the failover, not before it
  });

  it('queues each page once on the new primary', async () => {
    const notices = await runtime.sql<{ n: number; unsent: number }[]>`
      select count(*)::int as n, count(*) filter (where sent_at is null)::int as unsent
      from outbox where job_name = 'chat.escalation_notice'`;
    expect(notices[0]).toEqual({ n: 2, unsent: 0 });
    const depths = await worker.queues.depths();
    // The chat queue (nobody consumes it here): the channel, and the two pages.
    expect(depths.chat.waiting + depths.chat.delayed).toBe(3);
  });

  it('says what is wrong meanwhile: not ready, no read-write server, then connection restored', async () => {
    expect(readyDuring).toBe(503);
    const database = runtime.logs.lines.filter((line) => line.component === 'database');
    expect(database.map((line) => line.reason ?? line.after_reason)).toContain('no read-write server');
    expect(database.at(-1)?.msg).toBe('database: connection restored');
  });

  it('reports ready again, on the promoted server', async () => {
    const ready = await app.request('/ready');
    expect(ready.status).toBe(200);
    const [server] = await runtime.sql<{ port: number }[]>`select inet_server_port() as port`;
    expect(server!.port).toBe(pair.standby.port);
  });
});
