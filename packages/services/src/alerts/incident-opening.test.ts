import { settingKeys, settings } from '@firebreak/db';
import { waitFor } from '@firebreak/testing';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { announceIncident } from '../incidents/create';
import { criticalAlert } from '../testing/alert-input';
import { createTestContext, type TestContext } from '../testing/context';
import { fixedWebhookSource } from './intake-source';
import { recordAlerts, recordAlertsInTransaction } from './record-alerts';

// How an alert that opens an incident writes: every write of the opening in the order a reader expects,
// numbers without duplicates under concurrency, and the outbox relay woken after the commit rather than
// from inside the transaction (a NOTIFY inside makes concurrent commits run one at a time).
let t: TestContext;
beforeEach(async () => {
  t = await createTestContext();
});
afterEach(() => t.cleanup());

async function relayWakes(): Promise<{ count(): number; stop(): Promise<void> }> {
  let count = 0;
  const listener = await t.ctx.sql.listen('firebreak_outbox', () => {
    count += 1;
  });
  return { count: () => count, stop: () => listener.unlisten() };
}

const settleMs = (ms: number) => new Promise((done) => setTimeout(done, ms));

describe('an alert that opens an incident', () => {
  it('wakes the outbox relay once it has committed, not from inside its transaction', async () => {
    const wakes = await relayWakes();
    const { opened } = await t.ctx.sql.begin((tx) =>
      recordAlertsInTransaction(tx, t.ctx, fixedWebhookSource('generic'), [criticalAlert('a-1')], new Date()),
    );
    expect(opened).toHaveLength(1);
    // Committed with its outbox rows, and no notification from the transaction itself.
    await settleMs(300);
    expect(wakes.count()).toBe(0);
    const [pending] = await t.ctx.sql<{ n: number }[]>`
      select count(*)::int as n from outbox where sent_at is null`;
    expect(pending!.n).toBeGreaterThan(0);

    announceIncident(t.ctx, opened[0]!);
    await waitFor(() => wakes.count() === 1, { what: 'the wake after the commit' });

    // Through the whole use case, the wake comes by itself.
    await recordAlerts(t.ctx, 'generic', [criticalAlert('a-2')]);
    await waitFor(() => wakes.count() === 2, { what: 'the wake of recordAlerts' });
    await wakes.stop();
  });

  it('still lets other writers of the outbox notify from their transactions', async () => {
    const wakes = await relayWakes();
    await t.ctx.sql`insert into outbox (job_name, payload) values ('chat.open_channel', '{}')`;
    await waitFor(() => wakes.count() === 1, { what: 'the trigger notification' });
    await wakes.stop();
  });

  it('writes the opening in order: timeline, then the one outbox row that opens the channel, and the escalation due now', async () => {
    const [policy] = await t.ctx.sql<{ id: string }[]>`
      insert into escalation_policies (name) values ('Default') returning id`;
    await settings.putSetting(t.ctx.sql, settingKeys.defaultEscalationPolicy, policy!.id);
    const result = await recordAlerts(t.ctx, 'generic', [criticalAlert('b-1')]);
    const incidentId = result.alerts[0]!.incident_id!;

    const entries = await t.ctx.sql<{ type: string; data: { number?: number } }[]>`
      select type, data from timeline_entries where incident_id = ${incidentId} order by seq`;
    const [incident] = await t.ctx.sql<{ number: number; escalation_policy_id: string }[]>`
      select number, escalation_policy_id from incidents where id = ${incidentId}`;
    expect(entries.map((entry) => entry.type)).toEqual(['incident_created', 'alert_linked']);
    expect(entries[0]!.data.number).toBe(incident!.number);
    expect(incident!.escalation_policy_id).toBe(policy!.id);

    const jobs = await t.ctx.sql<{ job_name: string }[]>`
      select job_name from outbox where ordering_key = ${incidentId} order by id`;
    // No escalation job: the reconciler fires the due step when the opening's wake-up reaches it.
    // One chat job: opening the channel also posts the alert's link.
    expect(jobs.map((job) => job.job_name)).toEqual(['chat.open_channel']);
    const [escalation] = await t.ctx.sql<{ policy_id: string }[]>`
      select policy_id from incident_escalations where incident_id = ${incidentId}`;
    expect(escalation!.policy_id).toBe(policy!.id);
  });

  it('inserts its alert already linked: the alert row is written once, never updated', async () => {
    const counts = await t.ctx.sql.begin(async (tx) => {
      const { result } = await recordAlertsInTransaction(
        tx,
        t.ctx,
        fixedWebhookSource('generic'),
        [criticalAlert('f-1')],
        new Date(),
      );
      // This transaction's own writes so far (pg_stat_xact_*: counted before the commit).
      const [alertWrites] = await tx<{ n_tup_ins: number; n_tup_upd: number }[]>`
        select n_tup_ins::int, n_tup_upd::int from pg_stat_xact_user_tables where relname = 'alerts'`;
      return { result, alertWrites: alertWrites! };
    });
    expect(counts.alertWrites).toEqual({ n_tup_ins: 1, n_tup_upd: 0 });
    const incidentId = counts.result.alerts[0]!.incident_id!;
    const [alert] = await t.ctx.sql<{ incident_id: string; routing_rule_id: string | null }[]>`
      select incident_id, routing_rule_id from alerts where external_id = 'f-1'`;
    const [incident] = await t.ctx.sql<{ opened_by_alert_id: string; routing_rule_id: string }[]>`
      select opened_by_alert_id, routing_rule_id from incidents where id = ${incidentId}`;
    expect(alert).toEqual({ incident_id: incidentId, routing_rule_id: incident!.routing_rule_id });
    expect(incident!.routing_rule_id).not.toBeNull();
  });

  it('still refuses, at the commit, an alert linked to an incident that does not exist', async () => {
    await recordAlerts(t.ctx, 'generic', [criticalAlert('g-1')]);
    let updated = false;
    const linkedToNothing = t.ctx.sql.begin(async (tx) => {
      await tx`update alerts set incident_id = gen_random_uuid() where external_id = 'g-1'`;
      updated = true;
    });
    await expect(linkedToNothing).rejects.toMatchObject({
      code: '23503',
      constraint_name: 'alerts_incident_id_fkey',
    });
    expect(updated).toBe(true);
  });

  it('gets no policy when the default one is disabled', async () => {
    const [policy] = await t.ctx.sql<{ id: string }[]>`
      insert into escalation_policies (name, enabled) values ('Off', false) returning id`;
    await settings.putSetting(t.ctx.sql, settingKeys.defaultEscalationPolicy, policy!.id);
    const result = await recordAlerts(t.ctx, 'generic', [criticalAlert('c-1')]);
    const incidentId = result.alerts[0]!.incident_id!;
    const [incident] = await t.ctx.sql<{ escalation_policy_id: string | null }[]>`
      select escalation_policy_id from incidents where id = ${incidentId}`;
    expect(incident!.escalation_policy_id).toBeNull();
    const escalations = await t.ctx.sql`select 1 from incident_escalations where incident_id = ${incidentId}`;
    expect(escalations).toHaveLength(0);
  });

  it('numbers concurrent openings once each, with no gap and no duplicate', async () => {
    // Twenty at once would be a storm; here every one must open its own incident.
    await settings.putSetting(t.ctx.sql, 'storm_mode_enabled', false);
    const results = await Promise.all(
      Array.from({ length: 20 }, (_, i) => recordAlerts(t.ctx, 'generic', [criticalAlert(`d-${i}`)])),
    );
    expect(results.every((result) => result.incidents_created === 1)).toBe(true);
    const numbers = (await t.ctx.sql<{ number: number }[]>`select number from incidents order by number`).map(
      (row) => row.number,
    );
    expect(numbers).toEqual(Array.from({ length: 20 }, (_, i) => numbers[0]! + i));
  });
});

describe('openings outside a storm', () => {
  it('do not wait for one another to commit while storm mode is on', async () => {
    // One opening holds its transaction open; another, for a different alert, must still finish.
    let release!: () => void;
    const held = new Promise<void>((done) => {
      release = done;
    });
    let firstOpened!: () => void;
    const opened = new Promise<void>((done) => {
      firstOpened = done;
    });
    const first = t.ctx.sql.begin(async (tx) => {
      await recordAlertsInTransaction(
        tx,
        t.ctx,
        fixedWebhookSource('generic'),
        [criticalAlert('e-1')],
        new Date(),
      );
      firstOpened();
      await held;
    });
    await opened;
    const second = await Promise.race([
      recordAlerts(t.ctx, 'generic', [criticalAlert('e-2')]),
      settleMs(5_000).then(() => 'waited' as const),
    ]);
    release();
    await first;
    expect(second).not.toBe('waited');
    expect(second).toMatchObject({ incidents_created: 1 });
  });
});
