import { createSql, migrate, outbox, users } from '@firebreak/db';
import { createJobQueues, type JobQueues } from '@firebreak/queue';
import { CreateEscalationPolicyInput } from '@firebreak/schema';
import { CuttingProxy, PrivatePostgres } from '@firebreak/testing';
import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { recordAlerts } from './alerts/record-alerts';
import { runDueEscalations } from './escalation/run';
import { createIncident } from './incidents/create';
import { createEscalationPolicy } from './oncall/create-escalation-policy';
import { relayOutboxOnce } from './outbox/relay-outbox';
import { setDefaultEscalationPolicy } from './settings/default-policy';
import { criticalAlert } from './testing/alert-input';
import { createTestContext, type TestContext } from './testing/context';

// A transaction cut off by a crash or a failover may have committed: its COMMIT reached the server and
// only the answer was lost. Intake, the escalation pass and the outbox relay run such a transaction
// again, and the second run must find the first one's work (docs/decisions.md#postgresql-failover).
// A private server (a database per test, cloned from a migrated one) behind a proxy that cuts the
// connection at an exact moment.

let server: PrivatePostgres;
let proxy: CuttingProxy;
let t: TestContext;
let databases = 0;
beforeAll(async () => {
  server = await PrivatePostgres.start();
  const admin = createSql(server.url(), { max: 1 });
  await admin`create database migrated`;
  await admin.end();
  const setup = createSql(server.url('migrated'), { max: 1 });
  await migrate(setup);
  await setup.end();
  proxy = await CuttingProxy.start({ host: '127.0.0.1', port: server.port });
});
afterAll(async () => {
  await proxy?.stop();
  await server?.destroy();
});
beforeEach(async () => {
  const name = `cut_off_${++databases}`;
  const admin = createSql(server.url(), { max: 1 });
  await admin.unsafe(`create database ${name} template migrated`);
  await admin.end();
  t = await createTestContext({ databaseUrl: server.url(name), through: (url) => proxy.through(url) });
  proxy.cuts = 0;
});
afterEach(() => t.cleanup());

const count = async (query: PromiseLike<ReadonlyArray<Record<string, unknown>>>) =>
  Number((await query)[0]?.n);

describe('a cut-off transaction whose COMMIT was applied (the answer lost)', () => {
  it('intake answers, and the alert, its incident and its chat work exist once', async () => {
    proxy.cutAfterCommit();
    const result = await recordAlerts(t.ctx, 'generic', [criticalAlert('disk-db-1')]);
    expect(proxy.cuts).toBe(1);
    expect(result.alerts.map((alert) => alert.external_id)).toEqual(['disk-db-1']);
    expect(result.alerts[0]!.incident_id).not.toBeNull();

    const sql = t.ctx.sql;
    expect(await count(sql`select count(*)::int as n from alerts where external_id = 'disk-db-1'`)).toBe(1);
    expect(await count(sql`select count(*)::int as n from incidents`)).toBe(1);
    expect(await count(sql`select count(*)::int as n from outbox where job_name = 'chat.open_channel'`)).toBe(
      1,
    );
  });

  it('an alert without a key is not run again: the sender is told, nothing is stored twice', async () => {
    proxy.cutAfterCommit();
    const keyless = { ...criticalAlert('x'), externalId: null };
    const outcome = await recordAlerts(t.ctx, 'generic', [keyless]).catch(
      (error: { code?: string }) => error,
    );
    expect(outcome).toMatchObject({ code: 'CONNECTION_CLOSED' });
    expect(await count(t.ctx.sql`select count(*)::int as n from alerts`)).toBe(1);
  });

  it('an escalation step due in that pass pages once', async () => {
    const person = await users.insertUser(t.ctx.sql, {
      email: 'alice@example.test',
      name: 'Alice',
      role: 'member',
      slackUserId: 'U0ALICE',
    });
    const policy = await createEscalationPolicy(
      t.ctx,
      CreateEscalationPolicyInput.parse({
        name: 'One tier',
        tiers: [{ target_type: 'users', user_ids: [person.id], timeout_seconds: 300 }],
      }),
    );
    await setDefaultEscalationPolicy(t.ctx, policy.id);
    const incident = await createIncident(
      t.ctx,
      { type: 'user', name: 'tester' },
      { title: 'DB down', severity: 'high' },
    );

    proxy.cutAfterCommit();
    await runDueEscalations(t.ctx);
    expect(proxy.cuts).toBe(1);
    expect(await runDueEscalations(t.ctx)).toBe(0);

    const sql = t.ctx.sql;
    expect(
      await count(sql`select count(*)::int as n from escalation_steps where incident_id = ${incident.id}`),
    ).toBe(1);
    expect(
      await count(sql`
        select count(*)::int as n from timeline_entries
        where incident_id = ${incident.id} and type = 'escalation_triggered'`),
    ).toBe(1);
    expect(
      await count(sql`select count(*)::int as n from outbox where job_name = 'chat.escalation_notice'`),
    ).toBe(1);
  });
});

describe('the outbox relay cut off', () => {
  let queues: JobQueues;
  beforeEach(async () => {
    queues = createJobQueues(t.ctx.redis, t.ctx.redisPrefix);
    const incidentId = '00000000-0000-4000-8000-000000000001';
    await outbox.insertOutboxRows(t.ctx.sql, [
      { name: 'chat.open_channel', payload: { incident_id: incidentId }, orderingKey: incidentId },
      { name: 'webhook.deliver', payload: { webhook_id: incidentId, incident_id: incidentId } },
    ]);
  });
  afterEach(() => queues.close());

  const waiting = async () => {
    const depths = await queues.depths();
    return depths.chat.waiting + depths.webhooks.waiting;
  };
  const pending = () => count(t.ctx.sql`select count(*)::int as n from outbox where sent_at is null`);

  it('after its COMMIT was applied: each job is queued once', async () => {
    proxy.cutAfterCommit();
    await relayOutboxOnce(t.ctx, queues);
    expect(proxy.cuts).toBe(1);
    expect(await pending()).toBe(0);
    expect(await waiting()).toBe(2);
  });

  it('after the jobs reached Redis but before the rows were marked: each job is queued once', async () => {
    let first = true;
    const cutAfterEnqueue: JobQueues = {
      ...queues,
      enqueueMany: async (jobs) => {
        await queues.enqueueMany(jobs);
        // The first round's marking never reaches the server: that round rolls back.
        if (first) proxy.cutAtNextRequest();
        first = false;
      },
    };
    expect(await relayOutboxOnce(t.ctx, cutAfterEnqueue)).toBe(2);
    expect(proxy.cuts).toBe(1);
    expect(await pending()).toBe(0);
    expect(await waiting()).toBe(2);
  });
});
