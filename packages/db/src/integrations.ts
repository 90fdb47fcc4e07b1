import type { AlertSeverity, IntegrationType } from '@firebreak/schema';
import type { Queryable } from './client';

export interface IntegrationRow {
  id: string;
  name: string;
  type: IntegrationType;
  enabled: boolean;
  key: string;
  escalation_policy_id: string | null;
  labels: Record<string, string>;
  heartbeat_interval_seconds: number | null;
  heartbeat_grace_seconds: number | null;
  heartbeat_severity: AlertSeverity | null;
  heartbeat_last_ping_at: Date | null;
  heartbeat_next_due_at: Date | null;
  heartbeat_missed_at: Date | null;
  created_at: Date;
  updated_at: Date;
}

/** A row with the newest `received_at` of its alerts (null before the first). */
export interface IntegrationWithActivity extends IntegrationRow {
  last_alert_at: Date | null;
}

// Read from the alerts (index alerts_integration_received_idx) rather than written on the integration
// row by every alert, which would serialise concurrent intake through one row lock.
const withLastAlert = (sql: Queryable) => sql`
  select i.*, (select a.received_at from alerts a where a.integration_id = i.id
               order by a.received_at desc limit 1) as last_alert_at
  from integrations i`;

/** Every integration, oldest first (a configuration list: answered whole). */
export async function listIntegrations(sql: Queryable): Promise<IntegrationWithActivity[]> {
  return sql<IntegrationWithActivity[]>`${withLastAlert(sql)} order by i.created_at, i.id`;
}

export async function findIntegration(
  sql: Queryable,
  id: string,
): Promise<IntegrationWithActivity | undefined> {
  const [row] = await sql<IntegrationWithActivity[]>`${withLastAlert(sql)} where i.id = ${id}`;
  return row;
}

/** What keyed intake needs of the integration a key names: one query on the unique index of `key`. */
export type IntakeIntegrationRow = Pick<
  IntegrationRow,
  'id' | 'type' | 'enabled' | 'labels' | 'escalation_policy_id'
>;

export async function findIntegrationByKey(
  sql: Queryable,
  key: string,
): Promise<IntakeIntegrationRow | undefined> {
  const [row] = await sql<IntakeIntegrationRow[]>`
    select id, type, enabled, labels, escalation_policy_id from integrations where key = ${key}`;
  return row;
}

/**
 * Locks the integration's row `for key share` until the caller commits, before the batch locks any
 * alert: its alerts' foreign key needs this lock anyway, and taking it first keeps one lock order with
 * a delete of the integration (row, then alerts). Key share locks conflict neither with each other nor
 * with an update that leaves the unique columns alone, so concurrent batches and a PATCH never wait
 * here (a rotation, which changes `key`, waits for the batches in flight).
 */
export async function lockIntegrationForIntake(
  sql: Queryable,
  id: string,
): Promise<'enabled' | 'disabled' | 'gone'> {
  const [row] = await sql<{ enabled: boolean }[]>`
    select enabled from integrations where id = ${id} for key share`;
  if (!row) return 'gone';
  return row.enabled ? 'enabled' : 'disabled';
}

/** Which of `ids` name an integration (routing rules may only name existing ones). */
export async function existingIntegrationIds(sql: Queryable, ids: readonly string[]): Promise<Set<string>> {
  if (ids.length === 0) return new Set();
  const rows = await sql<
    { id: string }[]
  >`select id from integrations where id = any(${ids as string[]}::uuid[])`;
  return new Set(rows.map((row) => row.id));
}

export interface NewIntegration {
  name: string;
  type: IntegrationType;
  enabled: boolean;
  key: string;
  escalationPolicyId: string | null;
  labels: Record<string, string>;
  heartbeat: { intervalSeconds: number; graceSeconds: number; severity: AlertSeverity } | null;
}

export async function insertIntegration(
  sql: Queryable,
  fields: NewIntegration,
  at: Date,
): Promise<IntegrationRow> {
  const { heartbeat } = fields;
  const [row] = await sql<IntegrationRow[]>`
    insert into integrations (name, type, enabled, key, escalation_policy_id, labels, heartbeat_interval_seconds,
                              heartbeat_grace_seconds, heartbeat_severity, created_at, updated_at)
    values (${fields.name}, ${fields.type}, ${fields.enabled}, ${fields.key}, ${fields.escalationPolicyId},
            ${sql.json(fields.labels)}, ${heartbeat?.intervalSeconds ?? null}, ${heartbeat?.graceSeconds ?? null},
            ${heartbeat?.severity ?? null}, ${at}, ${at})
    returning *`;
  return row!;
}

export interface IntegrationChanges {
  name?: string;
  enabled?: boolean;
  escalationPolicyId?: string | null;
  labels?: Record<string, string>;
  intervalSeconds?: number;
  graceSeconds?: number;
  severity?: AlertSeverity;
}

/**
 * Applies the given changes. A new interval or grace moves an armed heartbeat's deadline to
 * last ping + interval + grace, in the same statement, so the reconciler never sees the old one.
 */
export async function updateIntegration(
  sql: Queryable,
  id: string,
  changes: IntegrationChanges,
  at: Date,
): Promise<IntegrationRow | undefined> {
  const set: Record<string, unknown> = { updated_at: at };
  if (changes.name !== undefined) set.name = changes.name;
  if (changes.enabled !== undefined) set.enabled = changes.enabled;
  if (changes.escalationPolicyId !== undefined) set.escalation_policy_id = changes.escalationPolicyId;
  if (changes.labels !== undefined) set.labels = sql.json(changes.labels);
  if (changes.intervalSeconds !== undefined) set.heartbeat_interval_seconds = changes.intervalSeconds;
  if (changes.graceSeconds !== undefined) set.heartbeat_grace_seconds = changes.graceSeconds;
  if (changes.severity !== undefined) set.heartbeat_severity = changes.severity;
  const schedule = changes.intervalSeconds !== undefined || changes.graceSeconds !== undefined;
  const interval = changes.intervalSeconds ?? null;
  const grace = changes.graceSeconds ?? null;
  const [row] = await sql<IntegrationRow[]>`
    update integrations set ${sql(set as never)}
    ${
      schedule
        ? sql`, heartbeat_next_due_at = heartbeat_last_ping_at + make_interval(secs =>
              coalesce(${interval}::integer, heartbeat_interval_seconds)
              + coalesce(${grace}::integer, heartbeat_grace_seconds))`
        : sql``
    }
    where id = ${id}
    returning *`;
  return row;
}

/** Replaces the key: the old one names nothing from this commit on. */
export async function setIntegrationKey(
  sql: Queryable,
  id: string,
  key: string,
  at: Date,
): Promise<IntegrationRow | undefined> {
  const [row] = await sql<IntegrationRow[]>`
    update integrations set key = ${key}, updated_at = ${at} where id = ${id} returning *`;
  return row;
}

/** Its alerts stay; their `integration_id` becomes null (the foreign key's `on delete set null`). */
export async function deleteIntegration(sql: Queryable, id: string): Promise<boolean> {
  const result = await sql`delete from integrations where id = ${id}`;
  return result.count > 0;
}
