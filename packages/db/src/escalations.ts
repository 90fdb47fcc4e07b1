import type { Queryable } from './client';
import { claimedTimeZone } from './escalations-batch';

export interface EscalationRow {
  incident_id: string;
  policy_id: string;
  next_tier: number;
  round: number;
  next_due_at: Date | null;
  stopped_reason: string | null;
}

export async function insertEscalation(
  sql: Queryable,
  escalation: { incidentId: string; policyId: string; dueAt: Date },
): Promise<void> {
  await insertEscalations(sql, [escalation]);
}

/** Escalations of incidents opened together, in one statement. */
export async function insertEscalations(
  sql: Queryable,
  started: ReadonlyArray<{ incidentId: string; policyId: string; dueAt: Date }>,
): Promise<void> {
  if (started.length === 0) return;
  const rows = started.map((escalation) => ({
    incident_id: escalation.incidentId,
    policy_id: escalation.policyId,
    due_at: escalation.dueAt.toISOString(),
  }));
  // One jsonb parameter however many: one text for any count (docs/decisions.md#one-text-per-statement).
  await sql`
    insert into incident_escalations (incident_id, policy_id, next_due_at, created_at, updated_at)
    select r.incident_id, r.policy_id, r.due_at, r.due_at, r.due_at
    from jsonb_to_recordset(${sql.json(rows as never)}) as r(incident_id uuid, policy_id uuid, due_at timestamptz)`;
}

export async function lockEscalation(sql: Queryable, incidentId: string): Promise<EscalationRow | undefined> {
  const [row] = await sql<EscalationRow[]>`
    select incident_id, policy_id, next_tier, round, next_due_at, stopped_reason
    from incident_escalations where incident_id = ${incidentId} for update`;
  return row;
}

export async function advanceEscalation(
  sql: Queryable,
  incidentId: string,
  next: { tier: number; round: number; dueAt: Date | null; stoppedReason: string | null; at: Date },
): Promise<void> {
  await sql`
    update incident_escalations set next_tier = ${next.tier}, round = ${next.round}, next_due_at = ${next.dueAt},
      stopped_reason = ${next.stoppedReason}, updated_at = ${next.at}
    where incident_id = ${incidentId}`;
}

/** Stops a running escalation (acknowledged, resolved); a stopped or absent one is left as it is. */
export async function stopEscalation(
  sql: Queryable,
  incidentId: string,
  reason: string,
  at: Date,
): Promise<boolean> {
  const result = await sql`
    update incident_escalations set next_due_at = null, stopped_reason = ${reason}, updated_at = ${at}
    where incident_id = ${incidentId} and next_due_at is not null`;
  return result.count > 0;
}

/**
 * Claims one step (incident, round, tier). The primary key makes the claim exactly-once: a late job,
 * a duplicate job or a second worker finds the step taken and notifies nobody. The step records the
 * time zone it was paged in (`claimedTimeZone`).
 */
export async function claimStep(
  sql: Queryable,
  step: { incidentId: string; round: number; tier: number; dueAt: Date; firedAt: Date; targets: unknown },
): Promise<boolean> {
  const rows = await sql`
    insert into escalation_steps (incident_id, round, tier, due_at, fired_at, targets, time_zone)
    select s.incident_id, s.round, s.tier, ${step.dueAt}::timestamptz, ${step.firedAt}::timestamptz,
           ${sql.json(step.targets as never)}::jsonb, ${claimedTimeZone(sql)}
    from (select ${step.incidentId}::uuid as incident_id, ${step.round}::int as round,
                 ${step.tier}::int as tier) s
    on conflict do nothing
    returning 1`;
  return rows.length > 0;
}

/** An escalation a pass holds, with its incident's status as the lock saw it. */
export interface DueEscalationRow extends EscalationRow {
  next_due_at: Date;
  status: string;
}

/**
 * Locks up to `limit` escalations whose deadline has passed, oldest deadline first, and their incidents
 * `for share`: an acknowledgement (which updates the incident) then waits for the pass to commit, or the
 * pass sees it committed. Rows another transaction holds are skipped, not waited for: a second worker
 * takes the next ones, an acknowledgement in progress is left to finish, and since the pass never waits
 * it cannot deadlock with whoever locks incident then escalation. `excluding`: escalations whose last
 * firing failed, which are tried alone rather than made to fail a whole batch again.
 */
export async function lockDueEscalations(
  sql: Queryable,
  now: Date,
  limit: number,
  excluding: readonly string[] = [],
): Promise<DueEscalationRow[]> {
  return sql<DueEscalationRow[]>`
    select e.incident_id, e.policy_id, e.next_tier, e.round, e.next_due_at, e.stopped_reason, i.status
    from incident_escalations e join incidents i on i.id = e.incident_id
    where e.next_due_at <= ${now} and e.incident_id <> all(${excluding as string[]}::uuid[])
    order by e.next_due_at
    limit ${limit}
    for update of e skip locked
    for share of i skip locked`;
}

/** The earliest deadline of any running escalation, or null when none runs (the reconciler's alarm). */
export async function nextEscalationDueAt(sql: Queryable): Promise<Date | null> {
  const [row] = await sql<{ due: Date | null }[]>`
    select min(next_due_at) as due from incident_escalations where next_due_at is not null`;
  return row?.due ?? null;
}

/**
 * The earliest deadline of any running escalation and the earliest one after `now` (null: none). The
 * first may be held by someone else and stay past for a while; the second is when the reconciler must
 * look next regardless. Two index lookups in one statement.
 */
export async function escalationDeadlines(
  sql: Queryable,
  now: Date,
): Promise<{ due: Date | null; upcoming: Date | null }> {
  const [row] = await sql<{ due: Date | null; upcoming: Date | null }[]>`
    select (select min(next_due_at) from incident_escalations where next_due_at is not null) as due,
           (select min(next_due_at) from incident_escalations where next_due_at > ${now}) as upcoming`;
  return { due: row?.due ?? null, upcoming: row?.upcoming ?? null };
}

/** Incidents whose next escalation deadline has passed, oldest deadline first. */
export async function listDueEscalations(sql: Queryable, now: Date, limit: number): Promise<string[]> {
  const rows = await sql<{ incident_id: string }[]>`
    select incident_id from incident_escalations
    where next_due_at <= ${now} order by next_due_at limit ${limit}`;
  return rows.map((row) => row.incident_id);
}

export async function findEscalation(sql: Queryable, incidentId: string): Promise<EscalationRow | undefined> {
  const [row] = await sql<EscalationRow[]>`
    select incident_id, policy_id, next_tier, round, next_due_at, stopped_reason
    from incident_escalations where incident_id = ${incidentId}`;
  return row;
}
export * from './escalations-batch';
