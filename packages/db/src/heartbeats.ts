import type { Queryable } from './client';

/**
 * A heartbeat integration as its deadline needs it (docs/integrations/heartbeats.md). Pings and misses
 * write only the `heartbeat_*` columns: `updated_at` stays the time of the last configuration change.
 */
export interface HeartbeatRow {
  id: string;
  name: string;
  enabled: boolean;
  labels: Record<string, string>;
  escalation_policy_id: string | null;
  heartbeat_interval_seconds: number;
  heartbeat_grace_seconds: number | null;
  heartbeat_severity: 'critical' | 'warning' | 'info' | null;
  heartbeat_last_ping_at: Date | null;
  heartbeat_next_due_at: Date | null;
  heartbeat_missed_at: Date | null;
}

/** Locks one heartbeat until the transaction ends (a ping waits here for a reconciler holding it). */
export async function lockHeartbeat(sql: Queryable, id: string): Promise<HeartbeatRow | undefined> {
  const [row] = await sql<HeartbeatRow[]>`
    select id, name, enabled, labels, escalation_policy_id, heartbeat_interval_seconds,
      heartbeat_grace_seconds, heartbeat_severity, heartbeat_last_ping_at, heartbeat_next_due_at,
      heartbeat_missed_at
    from integrations where id = ${id} and type = 'heartbeat'
    for update`;
  return row;
}

/**
 * Claims one enabled heartbeat whose deadline has passed and that is not yet reported missed, oldest
 * deadline first (the partial index `integrations_heartbeat_due_idx` answers it). `skip locked` lets
 * several reconcilers share the due rows without waiting on each other; PostgreSQL re-checks the
 * condition on the newest version of a row it locks, so a ping that re-armed it meanwhile wins.
 * `skip` names heartbeats this pass already failed on.
 */
export async function claimDueHeartbeat(
  sql: Queryable,
  now: Date,
  skip: readonly string[] = [],
): Promise<HeartbeatRow | undefined> {
  const [row] = await sql<HeartbeatRow[]>`
    select id, name, enabled, labels, escalation_policy_id, heartbeat_interval_seconds,
      heartbeat_grace_seconds, heartbeat_severity, heartbeat_last_ping_at, heartbeat_next_due_at,
      heartbeat_missed_at
    from integrations
    where heartbeat_next_due_at <= ${now} and heartbeat_missed_at is null
      and type = 'heartbeat' and enabled and id <> all(${skip as string[]}::uuid[])
    order by heartbeat_next_due_at
    limit 1
    for update skip locked`;
  return row;
}

/**
 * One disabled heartbeat that still holds a deadline or a miss, locked. The reconciler settles these in
 * case a disable reached the row without settling it (see `settleHeartbeatOnDisable` in services).
 */
export async function claimUnsettledDisabledHeartbeat(sql: Queryable): Promise<string | undefined> {
  const [row] = await sql<{ id: string }[]>`
    select id from integrations
    where type = 'heartbeat' and not enabled
      and (heartbeat_next_due_at is not null or heartbeat_missed_at is not null)
    limit 1
    for update skip locked`;
  return row?.id;
}

/** A ping: the deadline moves, and a reported miss is over. */
export async function recordPing(
  sql: Queryable,
  id: string,
  ping: { at: Date; nextDueAt: Date },
): Promise<void> {
  await sql`
    update integrations
    set heartbeat_last_ping_at = ${ping.at}, heartbeat_next_due_at = ${ping.nextDueAt},
      heartbeat_missed_at = null
    where id = ${id}`;
}

/** The deadline fired: the missed alert is firing until the next ping. */
export async function markMissed(sql: Queryable, id: string, at: Date): Promise<void> {
  await sql`update integrations set heartbeat_missed_at = ${at} where id = ${id}`;
}

/** Back to waiting for a first ping: no deadline, no miss, no last ping. */
export async function disarm(sql: Queryable, id: string): Promise<void> {
  await sql`
    update integrations
    set heartbeat_last_ping_at = null, heartbeat_next_due_at = null, heartbeat_missed_at = null
    where id = ${id}`;
}
