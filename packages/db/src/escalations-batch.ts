import type { Queryable } from './client';

// The writes of a reconciler pass, one statement each for the whole batch of steps it holds
// (docs/decisions.md#escalation-timers-under-load). The rows travel as one JSON parameter, which keeps
// jsonb columns (targets, entry data) and null deadlines intact where array parameters would not.

export interface EscalationState {
  incidentId: string;
  tier: number;
  round: number;
  /** Null stops the escalation, with `stoppedReason`. */
  dueAt: Date | null;
  stoppedReason: string | null;
}

/** Sets each escalation's next step (or stops it); the caller holds their rows. */
export async function setEscalationStates(
  sql: Queryable,
  states: readonly EscalationState[],
  at: Date,
): Promise<void> {
  if (states.length === 0) return;
  await sql`
    update incident_escalations e
    set next_tier = s.tier, round = s.round, next_due_at = s.due_at, stopped_reason = s.stopped_reason,
        updated_at = ${at}
    from jsonb_to_recordset(${sql.json(states.map(stateRecord) as never)})
      as s(incident_id uuid, tier int, round int, due_at timestamptz, stopped_reason text)
    where e.incident_id = s.incident_id`;
}

const stateRecord = (s: EscalationState) => ({
  incident_id: s.incidentId,
  tier: s.tier,
  round: s.round,
  due_at: s.dueAt,
  stopped_reason: s.stoppedReason,
});

export interface StepClaim {
  incidentId: string;
  round: number;
  tier: number;
  dueAt: Date;
  firedAt: Date;
  targets: unknown;
}

/**
 * Claims steps (incident, round, tier), as `claimStep` does one: the primary key makes each claim
 * exactly-once. Returns the keys (`incident:round:tier`) this call claimed; the others were taken.
 */
export async function claimSteps(sql: Queryable, steps: readonly StepClaim[]): Promise<Set<string>> {
  if (steps.length === 0) return new Set();
  const records = steps.map((s) => ({
    incident_id: s.incidentId,
    round: s.round,
    tier: s.tier,
    due_at: s.dueAt,
    fired_at: s.firedAt,
    targets: s.targets,
  }));
  const rows = await sql<{ incident_id: string; round: number; tier: number }[]>`
    insert into escalation_steps (incident_id, round, tier, due_at, fired_at, targets, time_zone)
    select incident_id, round, tier, due_at, fired_at, targets,
           ${claimedTimeZone(sql)}
    from jsonb_to_recordset(${sql.json(records as never)})
      as s(incident_id uuid, round int, tier int, due_at timestamptz, fired_at timestamptz, targets jsonb)
    on conflict do nothing
    returning incident_id, round, tier`;
  return new Set(rows.map((row) => stepKey(row.incident_id, row.round, row.tier)));
}

/**
 * The time zone a claimed step's page happens in (`escalation_steps.time_zone`,
 * docs/analytics.md#out-of-hours), for a claim whose rows are `s (incident_id, tier)`: that of the
 * schedule the tier names in the escalation's policy as the step fires, `UTC` for a tier of named
 * people. Read inside the claim, so every caller records it without a statement of its own; the step
 * keeps it when the policy changes later.
 */
export const claimedTimeZone = (sql: Queryable) => sql`
  coalesce((select sc.timezone
            from incident_escalations e
            join escalation_tiers et on et.policy_id = e.policy_id and et.position = s.tier
            join schedules sc on sc.id = et.schedule_id
            where e.incident_id = s.incident_id), 'UTC')`;

export const stepKey = (incidentId: string, round: number, tier: number): string =>
  `${incidentId}:${round}:${tier}`;

export interface TriggeredEntry {
  /** Chosen by the caller: the step's chat notice names its entry. */
  id: string;
  incidentId: string;
  data: unknown;
  at: Date;
}

/**
 * The `escalation_triggered` timeline entries of a batch, in one statement (`timeline.ts` writes
 * entries one at a time; these differ only in incident and data). A function scan yields the rows in
 * the order given, so `seq` follows it.
 */
export async function insertTriggeredEntries(
  sql: Queryable,
  entries: readonly TriggeredEntry[],
): Promise<void> {
  if (entries.length === 0) return;
  const records = entries.map((e) => ({ id: e.id, incident_id: e.incidentId, data: e.data, at: e.at }));
  await sql`
    insert into timeline_entries (id, incident_id, type, actor_type, actor_id, actor_name, data, created_at)
    select id, incident_id, 'escalation_triggered', 'system', null, 'escalation', data, at
    from jsonb_to_recordset(${sql.json(records as never)})
      as s(id uuid, incident_id uuid, data jsonb, at timestamptz)`;
}

/** A named person of a tier, with their current contact (`user_id` null once the user is deleted). */
export interface FiringTierUser {
  user_id: string | null;
  /** The user's current name, else the name kept on the tier. */
  name: string;
  slack_user_id: string | null;
  teams_user_id: string | null;
}

export interface FiringTier {
  target_type: 'users' | 'schedule';
  schedule_id: string | null;
  timeout_seconds: number;
  users: FiringTierUser[];
}

export interface FiringPolicy {
  id: string;
  name: string;
  enabled: boolean;
  repeat: number;
  /** In notification order: a step's `tier` indexes this list. */
  tiers: FiringTier[];
}

/**
 * The policies a batch of steps fires, with their tiers and each named person's current name and chat
 * id, in one statement (`escalationPolicies.findPolicies` and a contact lookup per tier take four).
 */
export async function findFiringPolicies(sql: Queryable, ids: readonly string[]): Promise<FiringPolicy[]> {
  if (ids.length === 0) return [];
  return sql<FiringPolicy[]>`
    select p.id, p.name, p.enabled, p.repeat, coalesce((
      select json_agg(json_build_object(
        'target_type', t.target_type, 'schedule_id', t.schedule_id, 'timeout_seconds', t.timeout_seconds,
        'users', coalesce((
          select json_agg(json_build_object(
            'user_id', u.id, 'name', coalesce(u.name, tu.name), 'slack_user_id', u.slack_user_id,
            'teams_user_id', u.teams_user_id
          ) order by tu.position)
          from escalation_tier_users tu left join users u on u.id = tu.user_id
          where tu.tier_id = t.id), '[]')
      ) order by t.position)
      from escalation_tiers t where t.policy_id = p.id), '[]') as tiers
    from escalation_policies p where p.id = any(${ids as string[]}::uuid[])`;
}
