import { alerts, maintenanceWindows, outbox, users } from '@firebreak/db';
import {
  type AlertInput,
  CreateEscalationPolicyInput,
  CreateMaintenanceWindowInput,
  type MaintenanceMatch,
} from '@firebreak/schema';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import type { IntakeSource } from '../alerts/intake-source';
import { listAlerts } from '../alerts/queries';
import { recordAlerts } from '../alerts/record-alerts';
import { createEscalationPolicy } from '../oncall/create-escalation-policy';
import { updateSettings } from '../settings/update';
import { createTestContext, type TestContext } from '../testing/context';
import { createMaintenanceWindow } from './create';
import { deleteMaintenanceWindow } from './delete';
import { listMaintenanceWindows } from './list';
import { releaseEndedWindows } from './release';

// Maintenance windows (docs/api.md#maintenance-windows) with an injected clock: the window ends when the
// test moves time, and the release runs when the test calls it, as the worker's pass does every second.
let t: TestContext;
let clock: Date;
const at = (iso: string) => {
  clock = new Date(iso);
};

beforeEach(async () => {
  t = await createTestContext();
  at('2026-11-21T10:00:00.000Z');
  t.ctx.now = () => clock;
});
afterEach(() => t.cleanup());

/** A keyed integration whose policy pages when the routing rule names none (the default rule doesn't). */
async function integrationWithPolicy(): Promise<{ source: IntakeSource; policyId: string }> {
  const user = await users.insertUser(t.ctx.sql, {
    email: 'oncall@example.test',
    name: 'On Call',
    role: 'member',
  });
  const policy = await createEscalationPolicy(
    t.ctx,
    CreateEscalationPolicyInput.parse({
      name: 'Database',
      tiers: [{ target_type: 'users', user_ids: [user.id], timeout_seconds: 300 }],
    }),
  );
  const [row] = await t.ctx.sql<{ id: string }[]>`
    insert into integrations (name, type, key, escalation_policy_id)
    values ('Prometheus', 'alertmanager', ${`key-${Math.random()}`}, ${policy.id}) returning id`;
  const source = {
    scope: row!.id,
    integrationId: row!.id,
    type: 'alertmanager',
    labels: {},
    escalationPolicyId: policy.id,
  };
  return { source, policyId: policy.id };
}

function alert(
  externalId: string,
  labels: Record<string, string>,
  status: 'firing' | 'resolved' = 'firing',
): AlertInput {
  return {
    title: `Alert ${externalId}`,
    description: null,
    severity: 'critical',
    status,
    externalId,
    fingerprint: null,
    source: 'prometheus',
    labels,
    annotations: {},
    startedAt: clock,
    endedAt: status === 'resolved' ? clock : null,
  };
}

async function window(match: MaintenanceMatch, startsAt: string, endsAt: string) {
  const input = CreateMaintenanceWindowInput.parse({
    name: 'DB upgrade',
    starts_at: startsAt,
    ends_at: endsAt,
    match,
  });
  return createMaintenanceWindow(t.ctx, input, null);
}

async function alertView(externalId: string) {
  const { alerts } = await listAlerts(t.ctx, { limit: 1000 });
  return alerts.find((a) => a.external_id === externalId)!;
}

async function pendingJobs(): Promise<string[]> {
  return (await outbox.listPendingOutbox(t.ctx.sql, 10_000)).map((row) => row.job_name);
}

async function incidentsOpened(): Promise<Array<{ id: string; escalation_policy_id: string | null }>> {
  return t.ctx.sql`select id, escalation_policy_id from incidents order by number`;
}

const releaseLines = () => t.logs.lines.filter((l) => l.msg === 'maintenance window ended: alerts released');

describe('an alert during a maintenance window', () => {
  it('is stored, shown as suppressed by maintenance, opens no incident and pages nobody', async () => {
    const { source } = await integrationWithPolicy();
    await window({ labels: { team: 'db' } }, '2026-11-21T09:00:00Z', '2026-11-21T11:00:00Z');
    const answer = await recordAlerts(t.ctx, source, [alert('held', { team: 'db' })]);
    expect(answer).toMatchObject({ created: 1, suppressed: 1, incidents_created: 0 });
    expect(await alertView('held')).toMatchObject({
      status: 'firing',
      incident_id: null,
      suppressed_by: 'maintenance',
    });
    expect(await incidentsOpened()).toEqual([]);
    expect(await pendingJobs()).toEqual([]);

    // The window takes only what it matches.
    const other = await recordAlerts(t.ctx, source, [alert('web', { team: 'web' })]);
    expect(other).toMatchObject({ suppressed: 0, incidents_created: 1 });
    expect(await alertView('web')).toMatchObject({ suppressed_by: null, incident_id: expect.any(String) });
  });
});

describe('the end of a window', () => {
  it('opens incidents for the alerts still firing, paged by the integration’s policy; resolved ones open nothing', async () => {
    const { source, policyId } = await integrationWithPolicy();
    await window(
      { integration_ids: [source.integrationId!] },
      '2026-11-21T09:30:00Z',
      '2026-11-21T10:30:00Z',
    );
    await recordAlerts(t.ctx, source, [alert('still', { team: 'db' }), alert('gone', { team: 'db' })]);
    at('2026-11-21T10:10:00.000Z');
    await recordAlerts(t.ctx, source, [alert('gone', { team: 'db' }, 'resolved')]);
    expect(await releaseEndedWindows(t.ctx)).toBe(0); // not ended yet
    expect(await incidentsOpened()).toEqual([]);

    at('2026-11-21T10:30:00.000Z');
    expect(await releaseEndedWindows(t.ctx)).toBe(1);
    const opened = await incidentsOpened();
    expect(opened).toEqual([{ id: expect.any(String), escalation_policy_id: policyId }]);
    expect(await alertView('still')).toMatchObject({ incident_id: opened[0]!.id, suppressed_by: null });
    expect(await alertView('gone')).toMatchObject({
      status: 'resolved',
      incident_id: null,
      suppressed_by: null,
    });
    expect(await pendingJobs()).toEqual(expect.arrayContaining(['chat.open_channel']));
    const [escalation] = await t.ctx
      .sql`select 1 from incident_escalations where incident_id = ${opened[0]!.id}`;
    expect(escalation).toBeDefined();
    expect(releaseLines()).toEqual([
      expect.objectContaining({
        routed: 1,
        incidents_created: 1,
        incident_ids: [opened[0]!.id],
        resolved_meanwhile: 1,
        held_by_another_window: 0,
      }),
    ]);
    expect(t.logs.lines.filter((l) => l.msg === 'incident created')).toHaveLength(1);

    // Released once: later passes find nothing to do.
    at('2026-11-21T10:31:00.000Z');
    expect(await releaseEndedWindows(t.ctx)).toBe(0);
    expect(await incidentsOpened()).toHaveLength(1);
  });

  it('keeps an alert held when another window still active matches it, by that window', async () => {
    const { source } = await integrationWithPolicy();
    await window({ labels: { team: 'db' } }, '2026-11-21T09:00:00Z', '2026-11-21T10:30:00Z');
    await window({}, '2026-11-21T10:15:00Z', '2026-11-21T12:00:00Z');
    await recordAlerts(t.ctx, source, [alert('long', { team: 'db' })]);

    at('2026-11-21T10:30:00.000Z');
    expect(await releaseEndedWindows(t.ctx)).toBe(1);
    expect(await incidentsOpened()).toEqual([]);
    expect(await alertView('long')).toMatchObject({ suppressed_by: 'maintenance', incident_id: null });
    expect(releaseLines()).toEqual([expect.objectContaining({ routed: 0, held_by_another_window: 1 })]);

    at('2026-11-21T12:00:00.000Z');
    expect(await releaseEndedWindows(t.ctx)).toBe(1);
    expect(await incidentsOpened()).toHaveLength(1);
  });

  it('opens each incident once when several passes run at the same time', async () => {
    // Counts one incident per alert: storm mode would take those past the 10th in (docs/api.md#storm-mode).
    await updateSettings(t.ctx, { storm_mode_enabled: false });
    const { source } = await integrationWithPolicy();
    for (let w = 0; w < 6; w++) {
      await window({ labels: { shard: String(w) } }, '2026-11-21T09:00:00Z', '2026-11-21T10:30:00Z');
      const inputs = Array.from({ length: 5 }, (_, i) => alert(`s${w}-a${i}`, { shard: String(w) }));
      expect(await recordAlerts(t.ctx, source, inputs)).toMatchObject({ suppressed: 5 });
    }
    at('2026-11-21T10:30:00.000Z');
    const passes = await Promise.all([1, 2, 3, 4].map(() => releaseEndedWindows(t.ctx)));
    expect(passes.reduce((sum, n) => sum + n, 0)).toBe(6);
    expect(await incidentsOpened()).toHaveLength(30);
    const [links] = await t.ctx.sql<{ alerts: number; linked: number; entries: number }[]>`
      select (select count(*)::int from alerts) as alerts,
             (select count(distinct incident_id)::int from alerts) as linked,
             (select count(*)::int from timeline_entries where type = 'incident_created') as entries`;
    expect(links).toEqual({ alerts: 30, linked: 30, entries: 30 });
    expect(releaseLines()).toHaveLength(6);
  });
  it('waits for a batch still holding an alert under the window, so the alert is not held forever', async () => {
    const { source } = await integrationWithPolicy();
    at('2026-11-21T08:00:00.000Z');
    const info = { ...alert('late', { team: 'db' }), severity: 'info' as const }; // no rule takes it
    await recordAlerts(t.ctx, source, [info]);
    await window({}, '2026-11-21T09:00:00Z', '2026-11-21T10:30:00Z');
    const late = await alertView('late');

    at('2026-11-21T10:30:00.000Z');
    // A batch whose clock still reads 10:29:59 finds the window in force; the release pass runs before
    // the batch holds its alert under it and commits.
    let duringBatch = -1;
    await t.ctx.sql.begin(async (tx) => {
      const [active] = await maintenanceWindows.listActiveWindows(tx, new Date('2026-11-21T10:29:59.000Z'));
      duringBatch = await releaseEndedWindows(t.ctx);
      await alerts.holdForMaintenance(tx, late.id, active!.id);
    });
    expect(duringBatch).toBe(0);
    expect(await alertView('late')).toMatchObject({ suppressed_by: 'maintenance' });
    expect(await releaseEndedWindows(t.ctx)).toBe(1);
    expect(await alertView('late')).toMatchObject({ suppressed_by: null, incident_id: null });
  });

  it('releases the other windows when one of them fails', async () => {
    const { source } = await integrationWithPolicy();
    await window({ labels: { shard: 'bad' } }, '2026-11-21T09:00:00Z', '2026-11-21T10:20:00Z');
    await window({ labels: { shard: 'good' } }, '2026-11-21T09:00:00Z', '2026-11-21T10:30:00Z');
    await recordAlerts(t.ctx, source, [alert('bad', { shard: 'bad' }), alert('good', { shard: 'good' })]);
    // A fault of the database's own making, on the first window's alert only.
    await t.ctx.sql.unsafe(`
      create function refuse_release() returns trigger language plpgsql as $$
      begin raise exception 'refused'; end $$;
      create trigger refuse_release before update on alerts for each row
        when (old.external_id = 'bad' and new.maintenance_window_id is null) execute function refuse_release();`);
    at('2026-11-21T10:30:00.000Z');
    expect(await releaseEndedWindows(t.ctx)).toBe(1);
    expect(await alertView('good')).toMatchObject({ incident_id: expect.any(String), suppressed_by: null });
    expect(await alertView('bad')).toMatchObject({ incident_id: null, suppressed_by: 'maintenance' });
    expect(t.logs.messages()).toContain('maintenance window release failed');

    await t.ctx.sql`drop trigger refuse_release on alerts`;
    expect(await releaseEndedWindows(t.ctx)).toBe(1);
    expect(await alertView('bad')).toMatchObject({ incident_id: expect.any(String), suppressed_by: null });
  });
});

describe('deleting a window', () => {
  it('ends an active window now and releases its alerts in the same request', async () => {
    const { source } = await integrationWithPolicy();
    const w = await window({}, '2026-11-21T09:00:00Z', '2026-11-21T12:00:00Z');
    await recordAlerts(t.ctx, source, [alert('during', { team: 'db' })]);
    at('2026-11-21T10:20:00.000Z');
    await deleteMaintenanceWindow(t.ctx, w.id);
    const opened = await incidentsOpened();
    expect(opened).toHaveLength(1);
    expect(await alertView('during')).toMatchObject({ incident_id: opened[0]!.id, suppressed_by: null });
    expect(await listMaintenanceWindows(t.ctx, {})).toEqual([
      expect.objectContaining({ id: w.id, status: 'ended', ends_at: '2026-11-21T10:20:00.000Z' }),
    ]);
    // Ended and released: no longer holds new alerts, and the release timer has nothing left to do.
    expect(await recordAlerts(t.ctx, source, [alert('after', { team: 'db' })])).toMatchObject({
      incidents_created: 1,
    });
    expect(await releaseEndedWindows(t.ctx)).toBe(0);
    expect(await incidentsOpened()).toHaveLength(2);
  });

  it('two active windows deleted at the same time: both end, each releasing its own alerts', async () => {
    // Each delete locks its window, then the other active ones (where its alerts may move); in
    // opposite orders the two would wait on each other, and PostgreSQL would abort one.
    const { source } = await integrationWithPolicy();
    for (let round = 0; round < 5; round++) {
      const shards = [`a${round}`, `b${round}`];
      const windows = [];
      for (const shard of shards) {
        windows.push(await window({ labels: { shard } }, '2026-11-21T09:00:00Z', '2026-11-21T12:00:00Z'));
        const held = [1, 2, 3].map((i) => alert(`${shard}-${i}`, { shard }));
        expect(await recordAlerts(t.ctx, source, held)).toMatchObject({ suppressed: 3 });
      }
      await Promise.all(windows.map((w) => deleteMaintenanceWindow(t.ctx, w.id)));
      for (const shard of shards) {
        for (const i of [1, 2, 3]) {
          expect(await alertView(`${shard}-${i}`)).toMatchObject({
            incident_id: expect.any(String),
            suppressed_by: null,
          });
        }
      }
    }
    const ended = await listMaintenanceWindows(t.ctx, { status: 'ended' });
    expect(ended).toHaveLength(10);
    // Neither waited on the other in a cycle: no deadlock had to be broken and retried.
    expect(t.logs.messages()).not.toContain('maintenance window delete conflicted; retrying');
  });

  it('removes a scheduled window, and releases an ended one the timer has not reached yet', async () => {
    const { source } = await integrationWithPolicy();
    const later = await window({}, '2026-11-21T13:00:00Z', '2026-11-21T14:00:00Z');
    const ended = await window({}, '2026-11-21T09:00:00Z', '2026-11-21T10:30:00Z');
    await recordAlerts(t.ctx, source, [alert('held', { team: 'db' })]);
    at('2026-11-21T11:00:00.000Z');
    await deleteMaintenanceWindow(t.ctx, later.id);
    await deleteMaintenanceWindow(t.ctx, ended.id);
    expect(await listMaintenanceWindows(t.ctx, {})).toEqual([]);
    expect(await alertView('held')).toMatchObject({ incident_id: expect.any(String), suppressed_by: null });
    await expect(deleteMaintenanceWindow(t.ctx, ended.id)).rejects.toMatchObject({ code: 'not_found' });
  });
});
