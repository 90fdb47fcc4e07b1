import { createSql, type Sql } from '@firebreak/db';
import { AppError } from '@firebreak/schema';
import { databaseUrl, testDatabaseAdminUrl, waitFor } from '@firebreak/testing';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import type { ServiceContext } from '../context';
import { updateSettings } from '../settings/update';
import { createTestContext, type TestContext } from '../testing/context';
import { fireDueHeartbeats } from './fire-due';
import { pingHeartbeat } from './ping';
import { settleDisabledHeartbeats, settleHeartbeatOnDisable } from './settle';

// Heartbeats (docs/integrations/heartbeats.md) with an injected clock: nothing sleeps; time moves when
// the test says so. Integrations are inserted with SQL: their CRUD API is not what is tested here.
let t: TestContext;
let clock: Date;
const at = (iso: string) => {
  clock = new Date(iso);
};
const extraPools: Sql[] = [];

beforeEach(async () => {
  t = await createTestContext();
  at('2026-11-21T10:00:00.000Z');
  t.ctx.now = () => clock;
});
afterEach(async () => {
  await Promise.all(extraPools.splice(0).map((sql) => sql.end()));
  await t.cleanup();
});

async function heartbeat(
  options: {
    name?: string;
    severity?: string;
    labels?: Record<string, string>;
    intervalSeconds?: number;
    graceSeconds?: number;
  } = {},
): Promise<string> {
  const [row] = await t.ctx.sql<{ id: string }[]>`
    insert into integrations (name, type, key, labels, heartbeat_interval_seconds, heartbeat_grace_seconds,
                              heartbeat_severity)
    values (${options.name ?? 'Nightly backup'}, 'heartbeat', ${`key-${Math.random()}`},
            ${t.ctx.sql.json(options.labels ?? {})}, ${options.intervalSeconds ?? 300},
            ${options.graceSeconds ?? 60}, ${options.severity ?? 'critical'})
    returning id`;
  return row!.id;
}

async function state(id: string) {
  const [row] = await t.ctx.sql<
    { last_ping_at: Date | null; next_due_at: Date | null; missed_at: Date | null }[]
  >`
    select heartbeat_last_ping_at as last_ping_at, heartbeat_next_due_at as next_due_at,
      heartbeat_missed_at as missed_at
    from integrations where id = ${id}`;
  return row!;
}

interface StoredAlert {
  id: string;
  title: string;
  description: string;
  severity: string;
  status: string;
  source: string;
  external_id: string;
  labels: Record<string, string>;
  integration_id: string;
  incident_id: string | null;
  maintenance_window_id: string | null;
}

async function alertsOf(integrationId: string): Promise<StoredAlert[]> {
  return t.ctx.sql<StoredAlert[]>`
    select id, title, description, severity, status, source, external_id, labels, integration_id, incident_id,
      maintenance_window_id
    from alerts where integration = ${integrationId} order by received_at`;
}

const missedLines = () => t.logs.messages().filter((msg) => msg === 'heartbeat missed').length;

describe('a heartbeat', () => {
  it('waits, is armed by its first ping, raises one alert when missed, and recovers on the next ping', async () => {
    const id = await heartbeat({ labels: { team: 'storage' } });

    // Waiting: no deadline, so nothing is ever missed, however late it gets.
    at('2026-11-22T10:00:00.000Z');
    expect(await fireDueHeartbeats(t.ctx)).toBe(0);

    const ping = await pingHeartbeat(t.ctx, id);
    expect(ping).toEqual({
      status: 'up',
      last_ping_at: '2026-11-22T10:00:00.000Z',
      next_due_at: '2026-11-22T10:06:00.000Z', // interval 300 s + grace 60 s
    });

    at('2026-11-22T10:05:59.999Z');
    expect(await fireDueHeartbeats(t.ctx)).toBe(0);
    at('2026-11-22T10:06:00.000Z');
    expect(await fireDueHeartbeats(t.ctx)).toBe(1);
    expect(await fireDueHeartbeats(t.ctx)).toBe(0);
    at('2026-11-22T10:30:00.000Z');
    expect(await fireDueHeartbeats(t.ctx)).toBe(0);

    const [alert, ...others] = await alertsOf(id);
    expect(others).toEqual([]);
    expect(alert).toMatchObject({
      title: 'Heartbeat missed: Nightly backup',
      severity: 'critical',
      status: 'firing',
      source: 'heartbeat',
      external_id: `heartbeat:${id}`,
      integration_id: id,
      labels: { team: 'storage' },
    });
    expect(alert!.description).toContain('No ping since 2026-11-22T10:00:00.000Z');
    expect(alert!.description).toContain('every 300 s');
    // Routed like any alert: the default routing rule opens an incident for a critical one.
    expect(alert!.incident_id).not.toBeNull();
    const [incident] = await t.ctx
      .sql`select title, severity from incidents where id = ${alert!.incident_id}`;
    expect(incident).toMatchObject({ title: 'Heartbeat missed: Nightly backup', severity: 'critical' });
    expect((await state(id)).missed_at).toEqual(new Date('2026-11-22T10:06:00.000Z'));
    expect(missedLines()).toBe(1);

    const back = await pingHeartbeat(t.ctx, id);
    expect(back).toEqual({
      status: 'up',
      last_ping_at: '2026-11-22T10:30:00.000Z',
      next_due_at: '2026-11-22T10:36:00.000Z',
    });
    const [resolved] = await alertsOf(id);
    expect(resolved).toMatchObject({ id: alert!.id, status: 'resolved' });
    expect(await state(id)).toEqual({
      last_ping_at: new Date('2026-11-22T10:30:00.000Z'),
      next_due_at: new Date('2026-11-22T10:36:00.000Z'),
      missed_at: null,
    });
    expect(t.logs.messages()).toContain('heartbeat recovered');

    // Missed again later: the same alert fires again, once.
    at('2026-11-22T10:36:00.000Z');
    expect(await fireDueHeartbeats(t.ctx)).toBe(1);
    expect((await alertsOf(id)).map((a) => [a.id, a.status])).toEqual([[alert!.id, 'firing']]);
  });

  it('raises an alert of its own severity that opens nothing under the default rule when info', async () => {
    const id = await heartbeat({ severity: 'info' });
    await pingHeartbeat(t.ctx, id);
    at('2026-11-21T10:06:00.000Z');
    expect(await fireDueHeartbeats(t.ctx)).toBe(1);
    const [alert] = await alertsOf(id);
    expect(alert).toMatchObject({ severity: 'info', status: 'firing', incident_id: null });
  });

  it('is held back by a maintenance window that covers its integration', async () => {
    const id = await heartbeat();
    const [window] = await t.ctx.sql<{ id: string }[]>`
      insert into maintenance_windows (name, starts_at, ends_at, match)
      values ('Backup migration', '2026-11-21T09:00:00Z', '2026-11-21T12:00:00Z',
              ${t.ctx.sql.json({ integration_ids: [id] })})
      returning id`;
    await pingHeartbeat(t.ctx, id);
    at('2026-11-21T10:06:00.000Z');
    expect(await fireDueHeartbeats(t.ctx)).toBe(1);
    const [alert] = await alertsOf(id);
    expect(alert).toMatchObject({ status: 'firing', incident_id: null, maintenance_window_id: window!.id });
  });

  it('answers not_found for an unknown, disabled or non-heartbeat integration, and changes nothing', async () => {
    const disabled = await heartbeat();
    await t.ctx.sql`update integrations set enabled = false where id = ${disabled}`;
    const [generic] = await t.ctx.sql<{ id: string }[]>`
      insert into integrations (name, type, key) values ('Prometheus', 'generic', 'generic-key') returning id`;
    for (const id of [disabled, generic!.id, '6f1c2a1e-0000-4000-8000-000000000000']) {
      const error = await pingHeartbeat(t.ctx, id).catch((e: unknown) => e);
      expect(error).toBeInstanceOf(AppError);
      expect((error as AppError).code).toBe('not_found');
    }
    expect(await state(disabled)).toEqual({ last_ping_at: null, next_due_at: null, missed_at: null });
  });
});

describe('exactly once', () => {
  /** A worker of its own: its own connection pool on the same database, the same clock. */
  async function anotherWorker(): Promise<ServiceContext> {
    const [{ name }] = (await t.ctx.sql`select current_database() as name`) as unknown as [{ name: string }];
    const sql = createSql(databaseUrl(testDatabaseAdminUrl, name), { max: 3 });
    extraPools.push(sql);
    return { ...t.ctx, sql };
  }

  it('raises one alert per missed heartbeat however many reconcilers race for them', async () => {
    // Counts one incident per alert: storm mode would take those past the 10th in (docs/api.md#storm-mode).
    await updateSettings(t.ctx, { storm_mode_enabled: false });
    const ids = await Promise.all(Array.from({ length: 12 }, (_, i) => heartbeat({ name: `Job ${i}` })));
    for (const id of ids) await pingHeartbeat(t.ctx, id);
    const workers = await Promise.all(Array.from({ length: 6 }, () => anotherWorker()));
    at('2026-11-21T10:06:00.000Z');

    const fired = await Promise.all([...workers, ...workers].map((ctx) => fireDueHeartbeats(ctx)));
    expect(fired.reduce((sum, n) => sum + n, 0)).toBe(ids.length);
    expect(missedLines()).toBe(ids.length);
    for (const id of ids) {
      expect((await alertsOf(id)).map((a) => a.status)).toEqual(['firing']);
      expect((await state(id)).missed_at).not.toBeNull();
    }
    const [{ n }] = (await t.ctx.sql`select count(*)::int as n from incidents`) as unknown as [{ n: number }];
    expect(n).toBe(ids.length);
  });

  it('serialises a ping with the pass firing its deadline: the ping that waited resolves the miss', async () => {
    const id = await heartbeat();
    await pingHeartbeat(t.ctx, id);
    // A first miss and recovery leave the alert row behind, so the next pass has a row to wait on.
    at('2026-11-21T10:06:00.000Z');
    await fireDueHeartbeats(t.ctx);
    at('2026-11-21T10:07:00.000Z');
    await pingHeartbeat(t.ctx, id);
    at('2026-11-21T10:13:00.000Z');

    // Hold the alert row: the pass claims the heartbeat, then waits for it while holding the claim.
    const holder = await anotherWorker();
    let release!: () => void;
    const held = new Promise<void>((resolve) => {
      release = resolve;
    });
    const holding = holder.sql.begin(async (tx) => {
      await tx`select 1 from alerts where integration = ${id} for update`;
      await held;
    });
    await waitFor(async () => (await lockWaits()) === 0 && (await holdsAlert(id)), {
      what: 'the alert lock',
    });
    const pass = fireDueHeartbeats(await anotherWorker());
    await waitFor(async () => (await lockWaits()) === 1, { what: 'the pass waiting on the alert' });
    const ping = pingHeartbeat(await anotherWorker(), id);
    await waitFor(async () => (await lockWaits()) === 2, { what: 'the ping waiting on the pass' });
    release();
    await holding;
    expect(await pass).toBe(1);
    expect((await ping).next_due_at).toBe('2026-11-21T10:19:00.000Z');

    expect((await alertsOf(id)).map((a) => a.status)).toEqual(['resolved']);
    expect((await state(id)).missed_at).toBeNull();
    expect(await fireDueHeartbeats(t.ctx)).toBe(0);
  });

  it('fires nothing when the ping commits before the pass', async () => {
    const id = await heartbeat();
    await pingHeartbeat(t.ctx, id);
    at('2026-11-21T10:06:00.000Z');
    await pingHeartbeat(t.ctx, id);
    expect(await fireDueHeartbeats(t.ctx)).toBe(0);
    expect(await alertsOf(id)).toEqual([]);
  });

  async function lockWaits(): Promise<number> {
    const [{ n }] = (await t.ctx.sql`
      select count(*)::int as n from pg_stat_activity
      where datname = current_database() and wait_event_type = 'Lock'`) as unknown as [{ n: number }];
    return n;
  }

  async function holdsAlert(integrationId: string): Promise<boolean> {
    // The holder's row lock is visible as a tuple lock only to waiters; a plain read confirms the
    // holder's transaction is open by trying the lock without waiting.
    return t.ctx.sql
      .begin(async (tx) => {
        await tx`select 1 from alerts where integration = ${integrationId} for update nowait`;
        return false;
      })
      .catch(() => true);
  }
});

describe('a disabled heartbeat', () => {
  it('raises nothing, and re-enabled it waits for a ping instead of firing the stale deadline', async () => {
    const id = await heartbeat();
    await pingHeartbeat(t.ctx, id);
    // Disabled behind the service's back (plain SQL): the reconciler skips and settles it.
    await t.ctx.sql`update integrations set enabled = false where id = ${id}`;
    at('2026-11-21T11:00:00.000Z');
    expect(await fireDueHeartbeats(t.ctx)).toBe(0);
    expect(await settleDisabledHeartbeats(t.ctx)).toBe(1);
    expect(await settleDisabledHeartbeats(t.ctx)).toBe(0);

    await t.ctx.sql`update integrations set enabled = true where id = ${id}`;
    at('2026-11-21T12:00:00.000Z');
    expect(await fireDueHeartbeats(t.ctx)).toBe(0);
    expect(await alertsOf(id)).toEqual([]);
    expect(await state(id)).toEqual({ last_ping_at: null, next_due_at: null, missed_at: null });

    // The next ping arms it again.
    await pingHeartbeat(t.ctx, id);
    at('2026-11-21T12:06:00.000Z');
    expect(await fireDueHeartbeats(t.ctx)).toBe(1);
  });

  it('resolves its firing missed alert when disabled or deleted', async () => {
    const disabled = await heartbeat({ name: 'Disabled' });
    const deleted = await heartbeat({ name: 'Deleted' });
    for (const id of [disabled, deleted]) await pingHeartbeat(t.ctx, id);
    at('2026-11-21T10:06:00.000Z');
    expect(await fireDueHeartbeats(t.ctx)).toBe(2);

    at('2026-11-21T10:10:00.000Z');
    await t.ctx.sql.begin(async (tx) => {
      await tx`update integrations set enabled = false where id = ${disabled}`;
      await settleHeartbeatOnDisable(tx, t.ctx, disabled);
    });
    await t.ctx.sql.begin(async (tx) => {
      await settleHeartbeatOnDisable(tx, t.ctx, deleted);
      await tx`delete from integrations where id = ${deleted}`;
    });

    for (const id of [disabled, deleted]) {
      const [alert] = await alertsOf(id);
      expect(alert).toMatchObject({ status: 'resolved' });
      expect(alert!.description).toContain('Heartbeat disabled at 2026-11-21T10:10:00.000Z');
    }
    expect(await state(disabled)).toEqual({ last_ping_at: null, next_due_at: null, missed_at: null });
    expect(await settleDisabledHeartbeats(t.ctx)).toBe(0);
  });
});
