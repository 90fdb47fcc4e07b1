import { randomUUID } from 'node:crypto';
import type { AlertInput } from '@firebreak/schema';
import { type AlertRow, type AlertScope, dedupKeyOf } from './alerts';
import type { Queryable } from './client';

/**
 * Set-based statements for a webhook batch: one query each to lock the known alerts, insert the new
 * ones and update the known ones, whatever the batch size (a 100-alert batch is 3 round trips, not
 * 300). Arrays go in as parameters and come apart with `unnest`.
 */

/** The known alerts among `keys`, as they are now (no lock). */
export async function findAlertsByKeys(
  sql: Queryable,
  integration: string,
  keys: readonly string[],
): Promise<Map<string, AlertRow>> {
  if (keys.length === 0) return new Map();
  const rows = await sql<AlertRow[]>`
    select * from alerts where integration = ${integration} and ${dedupKeyIn(sql, keys)}`;
  return new Map(rows.map((row) => [row.dedup_key!, row]));
}

/** The known alerts among `keys`, locked in key order (so concurrent batches queue, not deadlock). */
export async function lockAlertsByKeys(
  sql: Queryable,
  integration: string,
  keys: readonly string[],
): Promise<Map<string, AlertRow>> {
  if (keys.length === 0) return new Map();
  const rows = await sql<AlertRow[]>`
    select * from alerts where integration = ${integration} and ${dedupKeyIn(sql, keys)}
    order by dedup_key for update`;
  return new Map(rows.map((row) => [row.dedup_key!, row]));
}

/**
 * `dedup_key = any(keys)`, written `dedup_key = key` for the one key of a single-alert request (the
 * common case): PostgreSQL keeps one generic plan for that statement, while it re-plans the `any` of
 * an array parameter on every call once the table has grown (a third of a millisecond per request).
 */
function dedupKeyIn(sql: Queryable, keys: readonly string[]) {
  return keys.length === 1 ? sql`dedup_key = ${keys[0]!}` : sql`dedup_key = any(${keys as string[]})`;
}

/**
 * An alert inserted already linked to the incident it is about to open (`incidentId`, chosen by the
 * caller; the row is written later in the same transaction, and the reference is checked at commit).
 */
export interface AlertPreLink {
  incidentId: string;
  routingRuleId: string;
}

/**
 * Inserts new alerts. A keyed alert that a concurrent batch inserted first is skipped (`on conflict do
 * nothing`) and missing from the answer; the caller handles it as a known alert. Ids are made here so
 * the answer can be matched to the inputs whatever order the database returns rows in. `preLinks`,
 * aligned with `inputs`, links each alert that will open an incident to it from the start, so that the
 * opening need not update a row it has just written (docs/decisions.md#incident-opening-in-two-round-trips).
 */
export async function insertAlerts(
  sql: Queryable,
  scope: AlertScope,
  inputs: readonly AlertInput[],
  at: Date,
  preLinks: ReadonlyArray<AlertPreLink | null> = [],
): Promise<Array<AlertRow | undefined>> {
  if (inputs.length === 0) return [];
  const ids = inputs.map(() => randomUUID());
  const column = <T>(pick: (input: AlertInput) => T) => inputs.map(pick);
  const rows = await sql<AlertRow[]>`
    insert into alerts (id, integration, integration_id, source, dedup_key, external_id, fingerprint, title,
                        description, severity, status, labels, annotations, started_at, ended_at, received_at,
                        updated_at, incident_id, routing_rule_id)
    select v.id::uuid, ${scope.integration}, ${scope.integrationId}::uuid, v.source, v.dedup_key, v.external_id, v.fingerprint, v.title, v.description,
           v.severity, v.status, v.labels::jsonb, v.annotations::jsonb, v.started_at::timestamptz,
           v.ended_at::timestamptz, ${at}, ${at}, v.incident_id::uuid, v.routing_rule_id::uuid
    from unnest(${ids}::text[], ${column((i) => i.source)}::text[], ${column(dedupKeyOf)}::text[],
                ${column((i) => i.externalId)}::text[], ${column((i) => i.fingerprint)}::text[],
                ${column((i) => i.title)}::text[], ${column((i) => i.description)}::text[],
                ${column((i) => i.severity)}::text[], ${column((i) => i.status)}::text[],
                ${column((i) => JSON.stringify(i.labels))}::text[],
                ${column((i) => JSON.stringify(i.annotations))}::text[],
                ${column((i) => i.startedAt.toISOString())}::text[],
                ${column((i) => i.endedAt?.toISOString() ?? null)}::text[],
                ${inputs.map((_, i) => preLinks[i]?.incidentId ?? null)}::text[],
                ${inputs.map((_, i) => preLinks[i]?.routingRuleId ?? null)}::text[])
      as v(id, source, dedup_key, external_id, fingerprint, title, description, severity, status, labels,
           annotations, started_at, ended_at, incident_id, routing_rule_id)
    on conflict (integration, dedup_key) where dedup_key is not null do nothing
    returning *`;
  const byId = new Map(rows.map((row) => [row.id, row]));
  return ids.map((id) => byId.get(id));
}

export interface AlertUpdate {
  id: string;
  input: AlertInput;
  /** It fired again after being resolved: a new occurrence, so a new `started_at`. */
  refired: boolean;
  endedAt: Date | null;
}

/** A repeated delivery of known alerts: their content becomes the sender's latest word. */
// Every array goes in as text[] and is cast per column: postgres.js sends a one-element boolean or uuid
// array in a form PostgreSQL will not cast to an array.
export async function updateAlerts(
  sql: Queryable,
  updates: readonly AlertUpdate[],
  at: Date,
): Promise<AlertRow[]> {
  if (updates.length === 0) return [];
  const column = <T>(pick: (update: AlertUpdate) => T) => updates.map(pick);
  const rows = await sql<AlertRow[]>`
    update alerts a set
      source = v.source, title = v.title, description = v.description, severity = v.severity,
      status = v.status, labels = v.labels::jsonb, annotations = v.annotations::jsonb,
      started_at = case when v.refired::boolean then v.started_at::timestamptz else a.started_at end,
      ended_at = v.ended_at::timestamptz, received_at = ${at}, updated_at = ${at}
    from unnest(${column((u) => u.id)}::text[], ${column((u) => u.input.source)}::text[],
                ${column((u) => u.input.title)}::text[], ${column((u) => u.input.description)}::text[],
                ${column((u) => u.input.severity)}::text[], ${column((u) => u.input.status)}::text[],
                ${column((u) => JSON.stringify(u.input.labels))}::text[],
                ${column((u) => JSON.stringify(u.input.annotations))}::text[],
                ${column((u) => String(u.refired))}::text[],
                ${column((u) => u.input.startedAt.toISOString())}::text[],
                ${column((u) => u.endedAt?.toISOString() ?? null)}::text[])
      as v(id, source, title, description, severity, status, labels, annotations, refired, started_at, ended_at)
    where a.id = v.id::uuid
    returning a.*`;
  const byId = new Map(rows.map((row) => [row.id, row]));
  return updates.map((update) => byId.get(update.id)!);
}
