import { settingKeys, settings } from '@firebreak/db';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { criticalAlert as alert } from '../testing/alert-input';
import { createTestContext, type TestContext } from '../testing/context';
import { recordAlerts } from './record-alerts';
import { BATCHES_IN_FLIGHT } from './record-in-company';

// Intake in company (docs/decisions.md#intake-in-company): requests that arrive while the intake is
// writing share the next transaction, and the distinct failures of a transaction open their incidents
// together. Each request must still get exactly its own answer, fail only for its own reasons, and the
// openings must be what they are one at a time: numbers once each, every write, storms counted.
let t: TestContext;
beforeEach(async () => {
  t = await createTestContext();
});
afterEach(() => t.cleanup());

/** The transactions that wrote these alerts: rows written by one transaction share its `xmin`. */
async function transactionsOf(externalIds: readonly string[]): Promise<number> {
  const [row] = await t.ctx.sql<{ n: number }[]>`
    select count(distinct xmin::text)::int as n from alerts where external_id = any(${externalIds})`;
  return row!.n;
}

async function stormOff() {
  await settings.putSetting(t.ctx.sql, 'storm_mode_enabled', false);
}

describe('requests recorded in company', () => {
  it('share transactions while others are being written, and each gets exactly its own answer', async () => {
    await stormOff();
    // Twelve requests at once: the first BATCHES_IN_FLIGHT start alone, the rest wait and go together.
    const requests = Array.from({ length: 12 }, (_, i) =>
      i % 3 === 0 ? [alert(`r${i}-a`), alert(`r${i}-b`, { severity: 'info' })] : [alert(`r${i}`)],
    );
    const results = await Promise.all(requests.map((inputs) => recordAlerts(t.ctx, 'generic', inputs)));

    const all = requests.flat().map((input) => input.externalId!);
    expect(await transactionsOf(all)).toBe(BATCHES_IN_FLIGHT + 1);
    results.forEach((result, i) => {
      const sent = requests[i]!;
      expect(result.received).toBe(sent.length);
      expect(result.created).toBe(sent.length);
      expect(result.alerts.map((a) => a.external_id)).toEqual(sent.map((input) => input.externalId));
      // Critical alerts open an incident each; info alerts match no rule.
      expect(result.incidents_created).toBe(1);
      expect(result.alerts.map((a) => a.incident_id !== null)).toEqual(
        sent.map((input) => input.severity === 'critical'),
      );
    });
    const stored = await t.ctx.sql<{ external_id: string; incident_id: string | null }[]>`
      select external_id, incident_id from alerts`;
    const answered = new Map(
      results.flatMap((result) => result.alerts.map((a) => [a.external_id, a.incident_id])),
    );
    expect(new Map(stored.map((row) => [row.external_id, row.incident_id]))).toEqual(answered);
    const numbers = (await t.ctx.sql<{ number: number }[]>`select number from incidents order by number`).map(
      (row) => row.number,
    );
    expect(numbers).toEqual(Array.from({ length: 12 }, (_, i) => numbers[0]! + i));
  });

  it('records a request that waited at the newest arrival of its company, never before it came', async () => {
    const start = new Date('2026-12-05T10:00:00.000Z');
    const at = (seconds: number) => new Date(start.getTime() + seconds * 1000);
    await Promise.all(
      [0, 1, 2, 3].map((seconds) => recordAlerts(t.ctx, 'generic', [alert(`t${seconds}`)], at(seconds))),
    );
    const rows = await t.ctx.sql<{ external_id: string; received_at: Date }[]>`
      select external_id, received_at from alerts order by external_id`;
    // t0 and t1 started alone; t2 and t3 waited and were recorded together at t3's arrival.
    expect(rows.map((row) => [row.external_id, row.received_at.toISOString()])).toEqual([
      ['t0', at(0).toISOString()],
      ['t1', at(1).toISOString()],
      ['t2', at(3).toISOString()],
      ['t3', at(3).toISOString()],
    ]);
  });

  it('fails only the request the database refuses; the others are recorded, each once', async () => {
    await stormOff();
    const good = Array.from({ length: 6 }, (_, i) => [alert(`ok-${i}`)]);
    // PostgreSQL refuses a NUL character in text: this request cannot be stored.
    const bad = [alert('bad', { title: 'nul \u0000 in the title' })];
    const answers = await Promise.allSettled(
      [...good.slice(0, 3), bad, ...good.slice(3)].map((inputs) => recordAlerts(t.ctx, 'generic', inputs)),
    );
    expect(answers.map((answer) => answer.status)).toEqual([
      'fulfilled',
      'fulfilled',
      'fulfilled',
      'rejected',
      'fulfilled',
      'fulfilled',
      'fulfilled',
    ]);
    const stored = await t.ctx.sql<
      { external_id: string }[]
    >`select external_id from alerts order by external_id`;
    expect(stored.map((row) => row.external_id)).toEqual(good.map(([input]) => input!.externalId));
    const [incidents] = await t.ctx.sql<{ n: number }[]>`select count(*)::int as n from incidents`;
    expect(incidents!.n).toBe(6);
  });

  it('gives alerts without a key a transaction of their own (run again, they would be stored twice)', async () => {
    const unkeyed = Array.from({ length: 6 }, (_, i) => [
      alert('', { externalId: null, title: `unkeyed ${i}`, severity: 'info' }),
    ]);
    await Promise.all(unkeyed.map((inputs) => recordAlerts(t.ctx, 'generic', inputs)));
    const [row] = await t.ctx.sql<{ n: number; alerts: number }[]>`
      select count(distinct xmin::text)::int as n, count(*)::int as alerts from alerts`;
    expect(row).toEqual({ n: 6, alerts: 6 });
  });
});

describe('incidents opened together', () => {
  it('writes every opening as one alone would: entries, outbox rows, escalation, numbers in order', async () => {
    const [policy] = await t.ctx.sql<{ id: string }[]>`
      insert into escalation_policies (name) values ('Default') returning id`;
    await settings.putSetting(t.ctx.sql, settingKeys.defaultEscalationPolicy, policy!.id);
    // A clock that moves a second at every reading: openings one at a time would each read it.
    let readings = 0;
    const start = Date.now();
    t.ctx.now = () => {
      readings += 1;
      return new Date(start + readings * 1000);
    };
    const sent = ['o-1', 'o-2', 'o-3', 'o-4'].map((id) => alert(id));
    const result = await recordAlerts(t.ctx, 'generic', sent);
    expect(result.incidents_created).toBe(4);

    const incidents = await t.ctx.sql<
      {
        id: string;
        number: number;
        created_at: Date;
        opened_by: string;
        policy: string;
        entries: string[];
        jobs: string[];
      }[]
    >`
      select i.id, i.number, i.created_at, a.external_id as opened_by, i.escalation_policy_id as policy,
             array(select type from timeline_entries e where e.incident_id = i.id order by seq) as entries,
             array(select job_name from outbox o where o.ordering_key = i.id::text order by o.id) as jobs
      from incidents i join alerts a on a.id = i.opened_by_alert_id order by i.number`;
    expect(incidents.map((incident) => incident.opened_by)).toEqual(['o-1', 'o-2', 'o-3', 'o-4']);
    expect(incidents.map((incident) => incident.number - incidents[0]!.number)).toEqual([0, 1, 2, 3]);
    expect(result.alerts.map((a) => a.incident_id)).toEqual(incidents.map((incident) => incident.id));
    // Opened in one go: one moment for all four.
    expect(new Set(incidents.map((incident) => incident.created_at.getTime())).size).toBe(1);
    for (const incident of incidents) {
      expect(incident.policy).toBe(policy!.id);
      expect(incident.entries).toEqual(['incident_created', 'alert_linked']);
      expect(incident.jobs).toEqual(['chat.open_channel']);
    }
    const [escalations] = await t.ctx.sql<{ n: number }[]>`
      select count(*)::int as n from incident_escalations where policy_id = ${policy!.id} and next_due_at is not null`;
    expect(escalations!.n).toBe(4);
    // Every alert was inserted linked to its incident and never updated.
    const [alertWrites] = await t.ctx.sql<{ n: number }[]>`
      select count(*)::int as n from alerts where xmin::text = (select xmin::text from incidents limit 1)`;
    expect(alertWrites!.n).toBe(4);
  });

  it('still storms when a batch would cross the threshold: the threshold counts the whole batch', async () => {
    await settings.putSetting(t.ctx.sql, 'storm_threshold_incidents', 3);
    const result = await recordAlerts(
      t.ctx,
      'generic',
      Array.from({ length: 6 }, (_, i) => alert(`s-${i}`)),
    );
    // Three incidents, then the fourth failure starts the storm, which takes the last two.
    const incidents = await t.ctx.sql<{ storm: boolean }[]>`
      select storm_started_at is not null as storm from incidents order by number`;
    expect(incidents.map((incident) => incident.storm)).toEqual([false, false, false, true]);
    expect(result.incidents_created).toBe(4);
    expect(new Set(result.alerts.slice(3).map((a) => a.incident_id)).size).toBe(1);
  });

  it('counts together the rules that page the same policy, the default one named or not', async () => {
    const [policy] = await t.ctx.sql<{ id: string }[]>`
      insert into escalation_policies (name) values ('Default') returning id`;
    await settings.putSetting(t.ctx.sql, settingKeys.defaultEscalationPolicy, policy!.id);
    await settings.putSetting(t.ctx.sql, 'storm_threshold_incidents', 4);
    await t.ctx.sql`
      insert into routing_rules (name, priority, match_criteria, actions) values
        ('team a: the default policy', 1, '{"labels": {"team": "a"}}', '{"create_incident": true}'),
        ('team b: the same policy, named', 1, ${t.ctx.sql.json({ labels: { team: 'b' } })},
         ${t.ctx.sql.json({ create_incident: true, escalation_policy_id: policy!.id })})`;
    // Three and three: each rule alone stays within 4, together they are a storm of one scope.
    const sent = Array.from({ length: 6 }, (_, i) =>
      alert(`p-${i}`, { labels: { team: i % 2 ? 'b' : 'a' } }),
    );
    await recordAlerts(t.ctx, 'generic', sent);
    const [storms] = await t.ctx.sql<{ n: number; plain: number }[]>`
      select count(*) filter (where storm_started_at is not null)::int as n,
             count(*) filter (where storm_started_at is null)::int as plain
      from incidents`;
    expect(storms).toEqual({ n: 1, plain: 4 });
  });
});
