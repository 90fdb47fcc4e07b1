import type { AlertInput, AlertSeverity, AlertStatus } from '@firebreak/schema';
import type { Queryable } from './client';

export interface AlertRow {
  id: string;
  /** The dedup scope: a fixed webhook's name, or the id of the integration whose key received it. */
  integration: string;
  /** The integration (keyed intake) it came through; null for the fixed webhook paths. */
  integration_id: string | null;
  source: string | null;
  dedup_key: string | null;
  external_id: string | null;
  fingerprint: string | null;
  title: string;
  description: string | null;
  severity: AlertSeverity;
  status: AlertStatus;
  labels: Record<string, string>;
  annotations: Record<string, unknown>;
  started_at: Date;
  ended_at: Date | null;
  received_at: Date;
  updated_at: Date;
  incident_id: string | null;
  routing_rule_id: string | null;
  suppressed: boolean;
  /** Held back by this maintenance window (no incident, nobody paged) until the window ends. */
  maintenance_window_id: string | null;
}

/** Where alerts are recorded: the dedup scope and, for keyed intake, the integration's id. */
export interface AlertScope {
  integration: string;
  integrationId: string | null;
}

/** The stored identity of an alert: external_id, else fingerprint; none means "never deduplicated". */
export function dedupKeyOf(input: AlertInput): string | null {
  return input.externalId ?? input.fingerprint ?? null;
}

/** The existing alert with this identity, locked until the transaction ends. */
export async function lockAlertByKey(
  sql: Queryable,
  integration: string,
  dedupKey: string,
): Promise<AlertRow | undefined> {
  const [row] = await sql<AlertRow[]>`
    select * from alerts where integration = ${integration} and dedup_key = ${dedupKey} for update`;
  return row;
}

/**
 * One alert of a dedup scope, by its id or by its dedup key (an alert API's `id` or alias, a PagerDuty
 * dedup_key): a sender acts on the alerts of its own integration only. Locked when `lock` is set.
 */
export async function findAlertInScope(
  sql: Queryable,
  integration: string,
  ref: { id: string } | { dedupKey: string },
  options: { lock: boolean },
): Promise<AlertRow | undefined> {
  const [row] = await sql<AlertRow[]>`
    select * from alerts
    where integration = ${integration}
      and ${'id' in ref ? sql`id = ${ref.id}` : sql`dedup_key = ${ref.dedupKey}`}
    ${options.lock ? sql`for update` : sql``}`;
  return row;
}

/**
 * Inserts a new alert. With a dedup key, a concurrent insert of the same identity wins and this
 * returns nothing (the caller then locks and updates that row instead).
 */
export async function insertAlert(
  sql: Queryable,
  scope: AlertScope,
  input: AlertInput,
  at: Date,
): Promise<AlertRow | undefined> {
  const [row] = await sql<AlertRow[]>`
    insert into alerts (integration, integration_id, source, dedup_key, external_id, fingerprint, title, description, severity,
                        status, labels, annotations, started_at, ended_at, received_at, updated_at)
    values (${scope.integration}, ${scope.integrationId}, ${input.source}, ${dedupKeyOf(input)}, ${input.externalId}, ${input.fingerprint},
            ${input.title}, ${input.description}, ${input.severity}, ${input.status},
            ${sql.json(input.labels)}, ${sql.json(input.annotations as never)}, ${input.startedAt},
            ${input.endedAt}, ${at}, ${at})
    on conflict (integration, dedup_key) where dedup_key is not null do nothing
    returning *`;
  return row;
}

/**
 * A repeated delivery of a known alert: its content is the sender's latest word. `started_at` is kept
 * unless the alert fires again after being resolved (then a new occurrence starts).
 */
export async function updateAlert(
  sql: Queryable,
  id: string,
  input: AlertInput,
  options: { refired: boolean; endedAt: Date | null; at: Date },
): Promise<AlertRow> {
  const [row] = await sql<AlertRow[]>`
    update alerts set
      source = ${input.source}, title = ${input.title}, description = ${input.description},
      severity = ${input.severity}, status = ${input.status}, labels = ${sql.json(input.labels)},
      annotations = ${sql.json(input.annotations as never)},
      started_at = case when ${options.refired} then ${input.startedAt}::timestamptz else started_at end,
      ended_at = ${options.endedAt}, received_at = ${options.at}, updated_at = ${options.at}
    where id = ${id}
    returning *`;
  return row!;
}

export async function setAlertRouting(
  sql: Queryable,
  id: string,
  routing: { incidentId: string | null; routingRuleId: string | null; suppressed: boolean },
): Promise<void> {
  // A routing decision ends any hold by a maintenance window.
  await sql`
    update alerts set incident_id = ${routing.incidentId}, routing_rule_id = ${routing.routingRuleId},
                      suppressed = ${routing.suppressed}, maintenance_window_id = null
    where id = ${id}`;
}

/** Held back by a maintenance window: stored, linked to nothing, until the window ends. */
export async function holdForMaintenance(sql: Queryable, id: string, windowId: string): Promise<void> {
  await sql`
    update alerts set incident_id = null, routing_rule_id = null, suppressed = false,
                      maintenance_window_id = ${windowId}
    where id = ${id}`;
}

export async function countFiringAlertsOfIncident(sql: Queryable, incidentId: string): Promise<number> {
  const [row] = await sql<{ n: number }[]>`
    select count(*)::int as n from alerts where incident_id = ${incidentId} and status = 'firing'`;
  return row!.n;
}

export async function listAlertsOfIncident(sql: Queryable, incidentId: string): Promise<AlertRow[]> {
  return sql<AlertRow[]>`
    select * from alerts where incident_id = ${incidentId} order by received_at desc, id desc`;
}

/** The incident's `limit` most recently received alerts, newest first. */
export async function listLatestAlertsOfIncident(
  sql: Queryable,
  incidentId: string,
  limit: number,
): Promise<AlertRow[]> {
  return sql<AlertRow[]>`
    select * from alerts where incident_id = ${incidentId} order by received_at desc, id desc limit ${limit}`;
}

/**
 * One page of an incident's alerts, by `id`, after the cursor's. The id is the only column no later
 * delivery rewrites (`received_at` and `started_at` move with each one), so an alert re-delivered
 * while someone pages through neither jumps to a page already read nor shows up twice.
 */
export async function listAlertsOfIncidentPage(
  sql: Queryable,
  incidentId: string,
  page: { afterId?: string | undefined; limit: number },
): Promise<AlertRow[]> {
  return sql<AlertRow[]>`
    select * from alerts
    where incident_id = ${incidentId} ${page.afterId ? sql`and id > ${page.afterId}` : sql``}
    order by id
    limit ${page.limit}`;
}

export interface ListAlertsFilter {
  status?: AlertStatus | undefined;
  source?: string | undefined;
  /** Only alerts before this position (the cursor: the list is newest received first). */
  before?: { receivedAt: Date; id: string } | undefined;
  limit: number;
}

export async function listAlerts(sql: Queryable, filter: ListAlertsFilter): Promise<AlertRow[]> {
  return sql<AlertRow[]>`
    select * from alerts
    where true
      ${filter.status ? sql`and status = ${filter.status}` : sql``}
      ${filter.source ? sql`and source = ${filter.source}` : sql``}
      ${filter.before ? sql`and (received_at, id) < (${filter.before.receivedAt}, ${filter.before.id})` : sql``}
    order by received_at desc, id desc
    limit ${filter.limit}`;
}
