import type { IncidentSeverity, IncidentSource } from '@firebreak/schema';
import type { Queryable } from './client';
import type { IncidentRow } from './incidents';
import { type OutboxJob, outboxInsertSql } from './outbox';
import { settingKeys } from './settings';
import { type InsertTimelineEntry, timelineInsertSql } from './timeline';

export interface InsertIncident {
  /** Chosen by the caller (a random UUID), so that writes naming the incident need not wait for it. */
  id: string;
  /** From `reserveIncidentOpenings`. */
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

export interface ReservedOpening {
  number: number;
  escalationPolicyId: string | null;
}

/**
 * What openings need before they can write, in one round trip however many they are: each incident's
 * number (from the identity's sequence, so never handed out twice, as the column's default would),
 * in the order asked; the escalation policy each gets — the one its rule names (`rulePolicyIds`), else
 * the installation default (setting `default_escalation_policy_id`), none when that is disabled or
 * missing; the webhooks subscribed to `incident.created`, key-share locked (see
 * `lockSubscribedWebhooks`); and the outbox relay's wake deferred to after the commit (see
 * `deferRelayWake`).
 */
export async function reserveIncidentOpenings(
  sql: Queryable,
  rulePolicyIds: ReadonlyArray<string | null>,
): Promise<{ openings: ReservedOpening[]; webhookIds: string[] }> {
  const rows = await sql<{ number: number; policy_id: string | null; webhook_ids: string[] }[]>`
    with once as materialized (
      select set_config('firebreak.wake', 'after_commit', true) as wake,
             array(select id from outgoing_webhooks where enabled and 'incident.created' = any(events)
                   order by id for key share)::text[] as webhook_ids)
    select nextval(pg_get_serial_sequence('incidents', 'number'))::int as number,
           ${openingPolicyOf(sql, sql`r.rule_policy_id::uuid`)} as policy_id,
           once.webhook_ids
    from jsonb_array_elements_text(${sql.json(rulePolicyIds as never)}) with ordinality
         as r(rule_policy_id, n)
    cross join once
    order by r.n`;
  return {
    openings: rows.map((row) => ({ number: row.number, escalationPolicyId: row.policy_id })),
    webhookIds: rows[0]?.webhook_ids ?? [],
  };
}

/** One opening's `reserveIncidentOpenings`. */
export async function reserveIncidentOpening(
  sql: Queryable,
  rulePolicyId: string | null,
): Promise<ReservedOpening & { webhookIds: string[] }> {
  const { openings, webhookIds } = await reserveIncidentOpenings(sql, [rulePolicyId]);
  return { ...openings[0]!, webhookIds };
}

/**
 * The escalation policy an opening with this rule policy would get, as a scalar subquery (a uuid or
 * null), resolved as `reserveIncidentOpenings` resolves it: the rule's (or its integration's) policy,
 * else the installation default; a disabled or missing policy gives none. Storm mode scopes storms by it.
 */
export function openingPolicySql(sql: Queryable, rulePolicyId: string | null) {
  return openingPolicyOf(sql, sql`${rulePolicyId}::uuid`);
}

function openingPolicyOf(sql: Queryable, rulePolicy: ReturnType<Queryable>) {
  return sql`(select p.id from escalation_policies p
              where p.enabled
                and p.id = coalesce(${rulePolicy},
                                    (select (s.value #>> '{}')::uuid from settings s
                                     where s.key = ${settingKeys.defaultEscalationPolicy})))`;
}

/** The number comes from `reserveIncidentOpenings`, hence `overriding system value`. */
export async function insertIncident(sql: Queryable, incident: InsertIncident): Promise<IncidentRow> {
  const [row] = await sql<IncidentRow[]>`
    ${incidentsInsertSql(sql, [incident])}
    returning *`;
  return row!;
}

/** The insert of incident rows, without its `returning`: `insertIncident` and the openings' one statement. */
function incidentsInsertSql(sql: Queryable, incidents: readonly InsertIncident[]) {
  const rows = incidents.map((incident) => ({
    id: incident.id,
    number: incident.number,
    title: incident.title,
    description: incident.description,
    severity: incident.severity,
    source: incident.source,
    commander_id: incident.commanderId,
    escalation_policy_id: incident.escalationPolicyId ?? null,
    routing_rule_id: incident.routingRuleId ?? null,
    opened_by_alert_id: incident.openedByAlertId ?? null,
    group_key: incident.groupKey ?? null,
    created_at: incident.createdAt.toISOString(),
  }));
  // One parameter however many rows: one text for any count (docs/decisions.md#one-text-per-statement).
  return sql`
    insert into incidents (id, number, title, description, severity, source, commander_id,
                           escalation_policy_id, routing_rule_id, opened_by_alert_id, group_key,
                           created_at, updated_at)
    overriding system value
    select id, number, title, description, severity, source, commander_id, escalation_policy_id,
           routing_rule_id, opened_by_alert_id, group_key, created_at, created_at
    from jsonb_to_recordset(${sql.json(rows as never)}) as r(
      id uuid, number int, title text, description text, severity text, source text, commander_id uuid,
      escalation_policy_id uuid, routing_rule_id uuid, opened_by_alert_id uuid, group_key text,
      created_at timestamptz)`;
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
 * Openings' writes as ONE statement (data-modifying CTEs), however many incidents: the incidents,
 * their entries, their outbox rows and the links of their alerts. Each is a statement of its own when
 * written one by one, and an opening is what an outage is made of
 * (docs/decisions.md#incident-opening-in-two-round-trips). The rows of the entries and of the outbox
 * are each inserted by one `insert`, in the order given, so their sequences number them in that order;
 * the foreign keys to the new incidents are checked at the statement's end, when they exist. Every
 * part goes in as one jsonb parameter and every part is always there (an empty one writes nothing), so
 * the statement has one text for any number of openings, entries, jobs and links: one prepared
 * statement per connection instead of one per shape (docs/decisions.md#one-text-per-statement).
 * Returns the incidents in the order given.
 */
export async function insertOpenings(
  sql: Queryable,
  openings: readonly OpeningWrites[],
): Promise<IncidentRow[]> {
  const entries = openings.flatMap((opening) => opening.entries);
  const jobs = openings.flatMap((opening) => opening.jobs);
  const links = openings.flatMap(({ incident, linkedAlert: link }) =>
    link && !link.preLinked
      ? [{ id: link.id, incident_id: incident.id, routing_rule_id: link.routingRuleId }]
      : [],
  );
  const rows = await sql<IncidentRow[]>`
    with incident as (${incidentsInsertSql(
      sql,
      openings.map((opening) => opening.incident),
    )} returning *)
    , entries as (${timelineInsertSql(sql, entries)})
    , jobs as (${outboxInsertSql(sql, jobs)})
    , linked as (
        update alerts a set incident_id = l.incident_id, routing_rule_id = l.routing_rule_id,
                            suppressed = false, maintenance_window_id = null
        from jsonb_to_recordset(${sql.json(links as never)}) as l(id uuid, incident_id uuid, routing_rule_id uuid)
        where a.id = l.id)
    select * from incident`;
  const byId = new Map(rows.map((row) => [row.id, row]));
  return openings.map((opening) => byId.get(opening.incident.id)!);
}

/** One opening's `insertOpenings`. */
export async function insertOpening(sql: Queryable, writes: OpeningWrites): Promise<IncidentRow> {
  const [row] = await insertOpenings(sql, [writes]);
  return row!;
}
