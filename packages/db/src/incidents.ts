import type { IncidentSeverity, IncidentSource, IncidentStatus } from '@firebreak/schema';
import type { Queryable } from './client';
import { nextTierColumn } from './escalation-next-tier';
import type { OutboxJob } from './outbox';
import { settingKeys } from './settings';
import type { StormColumns } from './storms';
import type { InsertTimelineEntry } from './timeline';

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

export interface InsertIncident {
  /** Chosen by the caller (a random UUID), so that writes naming the incident need not wait for it. */
  id: string;
  /** From `reserveIncidentOpening`. */
  number: number;
  title: string;
  description: string;
  severity: IncidentSeverity;
  source: IncidentSource;
  commanderId: string | null;
  escalationPolicyId?: string | null;
  routingRuleId?: string | null;
  /** The alert opening it, when an alert does: analytics counts the incident by that alert's labels. */
  openedByAlertId?: string | null;
  /** The group of its routing rule it opens (docs/api.md#routing-rules), when the rule groups. */
  groupKey?: string | null;
  createdAt: Date;
}

/**
 * What an opening needs before it can write, in one round trip: the incident's number (from the
 * identity's sequence, so never handed out twice, as the column's default would); the escalation policy
 * it gets — the one its rule names, else the installation default (setting
 * `default_escalation_policy_id`), none when that is disabled or missing; the webhooks subscribed to
 * `incident.created`, key-share locked (see `lockSubscribedWebhooks`); and the outbox relay's wake
 * deferred to after the commit (see `deferRelayWake`).
 */
export async function reserveIncidentOpening(
  sql: Queryable,
  rulePolicyId: string | null,
): Promise<{ number: number; escalationPolicyId: string | null; webhookIds: string[] }> {
  const [row] = await sql<{ number: number; policy_id: string | null; webhook_ids: string[] }[]>`
    select nextval(pg_get_serial_sequence('incidents', 'number'))::int as number,
           ${openingPolicySql(sql, rulePolicyId)} as policy_id,
           set_config('firebreak.wake', 'after_commit', true) as wake,
           array(select id from outgoing_webhooks where enabled and 'incident.created' = any(events)
                 order by id for key share)::text[] as webhook_ids`;
  return { number: row!.number, escalationPolicyId: row!.policy_id, webhookIds: row!.webhook_ids };
}

/**
 * The escalation policy an opening with this rule policy would get, as a scalar subquery (a uuid or
 * null), resolved as `reserveIncidentOpening` resolves it: the rule's (or its integration's) policy,
 * else the installation default; a disabled or missing policy gives none. Storm mode scopes storms by it.
 */
export function openingPolicySql(sql: Queryable, rulePolicyId: string | null) {
  return sql`(select p.id from escalation_policies p
              where p.enabled
                and p.id = coalesce(${rulePolicyId}::uuid,
                                    (select (s.value #>> '{}')::uuid from settings s
                                     where s.key = ${settingKeys.defaultEscalationPolicy})))`;
}

/** The number comes from `reserveIncidentOpening`, hence `overriding system value`. */
export async function insertIncident(sql: Queryable, incident: InsertIncident): Promise<IncidentRow> {
  const [row] = await sql<IncidentRow[]>`
    ${incidentInsertSql(sql, incident)}
    returning *`;
  return row!;
}

/** The insert of an incident row, without its `returning`: `insertIncident` and the opening's one statement. */
export function incidentInsertSql(sql: Queryable, incident: InsertIncident) {
  return sql`
    insert into incidents (id, number, title, description, severity, source, commander_id,
                           escalation_policy_id, routing_rule_id, opened_by_alert_id, group_key,
                           created_at, updated_at)
    overriding system value
    values (${incident.id}, ${incident.number}, ${incident.title}, ${incident.description},
            ${incident.severity}, ${incident.source}, ${incident.commanderId},
            ${incident.escalationPolicyId ?? null}, ${incident.routingRuleId ?? null},
            ${incident.openedByAlertId ?? null}, ${incident.groupKey ?? null},
            ${incident.createdAt}, ${incident.createdAt})`;
}

/** Everything an opening writes besides its escalation, in the order the statement writes it. */
export interface OpeningWrites {
  incident: InsertIncident;
  /** Its first timeline entries, ids chosen by the caller, in timeline order. */
  entries: ReadonlyArray<InsertTimelineEntry & { id: string }>;
  /** Its first outbox rows, in relay order (none delayed). */
  jobs: readonly OutboxJob[];
  /**
   * The alert that opened it, now linked to it (the routing decision also ends a maintenance hold).
   * `preLinked`: the alert was inserted in this transaction already linked to this incident
   * (`alertBatches.insertAlerts`), so there is nothing to update.
   */
  linkedAlert?: { id: string; routingRuleId: string | null; preLinked?: boolean };
}

/**
 * An opening's writes as ONE statement (data-modifying CTEs): the incident, its entries, its outbox
 * rows and the link of its alert. Each is a statement of its own when written one by one, and an
 * opening is what an outage is made of (docs/decisions.md#incident-opening-in-two-round-trips). The
 * rows of the entries and of the outbox are each inserted by one `insert`, in the order given, so
 * their sequences number them in that order; the foreign keys to the new incident are checked at the
 * statement's end, when it exists.
 */
export async function insertOpening(sql: Queryable, writes: OpeningWrites): Promise<IncidentRow> {
  const id = writes.incident.id;
  const entries = writes.entries.map((entry) => ({
    id: entry.id,
    incident_id: entry.incidentId,
    type: entry.type,
    actor_type: entry.actor.type,
    actor_id: entry.actor.id ?? null,
    actor_name: entry.actor.name ?? null,
    data: entry.data,
    created_at: entry.at,
  }));
  const jobs = writes.jobs.map((job) => ({
    job_name: job.name,
    payload: job.payload,
    ordering_key: job.orderingKey ?? null,
  }));
  const link = writes.linkedAlert;
  const [row] = await sql<IncidentRow[]>`
    with incident as (${incidentInsertSql(sql, writes.incident)} returning *)
    ${entries.length > 0 ? sql`, entries as (insert into timeline_entries ${sql(entries as never)})` : sql``}
    ${jobs.length > 0 ? sql`, jobs as (insert into outbox ${sql(jobs as never)})` : sql``}
    ${
      link && !link.preLinked
        ? sql`, linked as (
            update alerts set incident_id = ${id}, routing_rule_id = ${link.routingRuleId},
                              suppressed = false, maintenance_window_id = null
            where id = ${link.id})`
        : sql``
    }
    select * from incident`;
  return row!;
}

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
