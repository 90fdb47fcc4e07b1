import type { IncidentSeverity, IncidentSource, IncidentStatus } from '@firebreak/schema';
import type { Queryable } from './client';
import { nextTierColumn } from './escalation-next-tier';
import type { StormColumns } from './storms';

export interface IncidentRow extends StormColumns {
  id: string;
  number: number;
  title: string;
  description: string;
  severity: IncidentSeverity;
  status: IncidentStatus;
  source: IncidentSource;
  commander_id: string | null;
  escalation_policy_id: string | null;
  routing_rule_id: string | null;
  all_alerts_resolved: boolean;
  group_key: string | null;
  created_at: Date;
  updated_at: Date;
  acknowledged_at: Date | null;
  resolved_at: Date | null;
  mttr_seconds: number | null;
  /** The alert whose routing opened it (docs/analytics.md); null when a person or chat opened it. */
  opened_by_alert_id: string | null;
}

/** An incident with what the API shows beside it: the commander and the number of linked alerts. */
export interface IncidentView extends IncidentRow {
  commander_name: string | null;
  commander_email: string | null;
  alert_count: number;
  /** The tier a manual escalation would page now (1-based); null when none is left. */
  next_tier: number | null;
  /** Its chat channel on each platform that opened one, Slack first (docs/teams.md). */
  chat_channels: IncidentChatChannel[];
}

export interface IncidentChatChannel {
  platform: 'slack' | 'teams';
  id: string;
  name: string;
}

// Opening incidents (the number, the policy, the one statement of writes) is in its own module.
export * from './incident-openings';

/** `ref` is the UUID or the sequential number (docs/api.md#ids). */
export type IncidentRef = { id: string } | { number: number };

function refCondition(sql: Queryable, ref: IncidentRef) {
  return 'id' in ref ? sql`i.id = ${ref.id}` : sql`i.number = ${ref.number}`;
}

const viewColumns = (sql: Queryable) => sql`
  i.*, u.name as commander_name, u.email as commander_email,
  (select count(*)::int from alerts a where a.incident_id = i.id) as alert_count,
  ${nextTierColumn(sql)} as next_tier,
  coalesce((select json_agg(json_build_object('platform', c.platform, 'id', c.channel_id, 'name', c.channel_name)
                            order by c.platform)
            from chat_channels c where c.incident_id = i.id and c.channel_id is not null),
           '[]'::json) as chat_channels`;

export async function findIncidentView(sql: Queryable, ref: IncidentRef): Promise<IncidentView | undefined> {
  const [row] = await sql<IncidentView[]>`
    select ${viewColumns(sql)}
    from incidents i left join users u on u.id = i.commander_id
    where ${refCondition(sql, ref)}`;
  return row;
}

/** Locks the incident row for the rest of the transaction, so concurrent changes queue up. */
export async function lockIncident(sql: Queryable, ref: IncidentRef): Promise<IncidentRow | undefined> {
  const [row] = await sql<
    IncidentRow[]
  >`select i.* from incidents i where ${refCondition(sql, ref)} for update`;
  return row;
}

/**
 * The incident's status, title and number under a share lock: the incident cannot change status until
 * the transaction ends, while other readers are not held up.
 */
export async function lockIncidentStatus(
  sql: Queryable,
  id: string,
): Promise<Pick<IncidentRow, 'status' | 'title' | 'number'> | undefined> {
  const [row] = await sql<Pick<IncidentRow, 'status' | 'title' | 'number'>[]>`
    select status, title, number from incidents where id = ${id} for share`;
  return row;
}

export interface ListIncidentsFilter {
  status?: IncidentStatus | undefined;
  severity?: IncidentSeverity | undefined;
  /** Only incidents numbered below this (the cursor: the list is newest first). */
  beforeNumber?: number | undefined;
  limit: number;
}

export async function listIncidentViews(
  sql: Queryable,
  filter: ListIncidentsFilter,
): Promise<IncidentView[]> {
  return sql<IncidentView[]>`
    select ${viewColumns(sql)}
    from incidents i left join users u on u.id = i.commander_id
    where true
      ${filter.status ? sql`and i.status = ${filter.status}` : sql``}
      ${filter.severity ? sql`and i.severity = ${filter.severity}` : sql``}
      ${filter.beforeNumber !== undefined ? sql`and i.number < ${filter.beforeNumber}` : sql``}
    order by i.number desc
    limit ${filter.limit}`;
}

/**
 * Moves an incident from one status to another only if it still has the `from` status (a conditional
 * update): of two concurrent acknowledgements exactly one changes the row.
 */
export async function changeStatus(
  sql: Queryable,
  change: { id: string; from: IncidentStatus; to: IncidentStatus; at: Date; mttrSeconds: number | null },
): Promise<IncidentRow | undefined> {
  const [row] = await sql<IncidentRow[]>`
    update incidents set
      status = ${change.to},
      acknowledged_at = case when ${change.to} = 'acknowledged' then ${change.at}::timestamptz
                             else acknowledged_at end,
      resolved_at = case when ${change.to} = 'resolved' then ${change.at}::timestamptz else resolved_at end,
      mttr_seconds = ${change.mttrSeconds},
      updated_at = ${change.at}
    where id = ${change.id} and status = ${change.from}
    returning *`;
  return row;
}

export interface IncidentFieldChanges {
  title?: string;
  description?: string;
  severity?: IncidentSeverity;
  commander_id?: string | null;
}

export async function updateIncidentFields(
  sql: Queryable,
  id: string,
  changes: IncidentFieldChanges,
  at: Date,
): Promise<IncidentRow> {
  const [row] = await sql<IncidentRow[]>`
    update incidents set ${sql({ ...changes, updated_at: at } as Record<string, unknown>)}
    where id = ${id}
    returning *`;
  return row!;
}

/**
 * One opener per (rule, group) at a time, until the transaction ends: without it, two requests with
 * alerts of the same new group would both find no open incident and both open one.
 */
export async function lockGroupOpening(
  sql: Queryable,
  routingRuleId: string,
  groupKey: string,
): Promise<void> {
  await sql`select pg_advisory_xact_lock(hashtextextended(${`${routingRuleId}:${groupKey}`}, 0))`;
}

/** The newest open incident a rule opened for this group within the window (alert grouping). */
export async function findOpenGroupIncident(
  sql: Queryable,
  group: { routingRuleId: string; groupKey: string; since: Date },
): Promise<IncidentRow | undefined> {
  const [row] = await sql<IncidentRow[]>`
    select * from incidents
    where routing_rule_id = ${group.routingRuleId} and group_key = ${group.groupKey}
      and status <> 'resolved' and created_at >= ${group.since}
    order by created_at desc
    limit 1
    for update`;
  return row;
}

export async function setAllAlertsResolved(
  sql: Queryable,
  id: string,
  value: boolean,
  at: Date,
): Promise<boolean> {
  const result = await sql`
    update incidents set all_alerts_resolved = ${value}, updated_at = ${at}
    where id = ${id} and all_alerts_resolved <> ${value}`;
  return result.count > 0;
}
