import type { Queryable, Sql } from './client';
import { withSessionAdvisoryLock } from './session-lock';

// Outgoing webhooks and their deliveries (migration 0012). A "line" is the deliveries of one webhook
// for one incident: they go out strictly in `seq` order, one at a time.

export interface OutgoingWebhookRow {
  id: string;
  name: string;
  url: string;
  events: string[];
  secret: string | null;
  enabled: boolean;
  created_at: Date;
  updated_at: Date;
}

export interface OutgoingWebhookFields {
  name: string;
  url: string;
  events: string[];
  /** Null: deliveries are not signed. */
  secret: string | null;
  enabled: boolean;
}

export async function listWebhooks(sql: Queryable): Promise<OutgoingWebhookRow[]> {
  return sql<OutgoingWebhookRow[]>`select * from outgoing_webhooks order by created_at, id`;
}

export async function findWebhook(sql: Queryable, id: string): Promise<OutgoingWebhookRow | undefined> {
  const [row] = await sql<OutgoingWebhookRow[]>`select * from outgoing_webhooks where id = ${id}`;
  return row;
}

export async function insertWebhook(
  sql: Queryable,
  webhook: OutgoingWebhookFields,
  at: Date,
): Promise<OutgoingWebhookRow> {
  const [row] = await sql<OutgoingWebhookRow[]>`
    insert into outgoing_webhooks (name, url, events, secret, enabled, created_at, updated_at)
    values (${webhook.name}, ${webhook.url}, ${webhook.events}::text[], ${webhook.secret},
            ${webhook.enabled}, ${at}, ${at})
    returning *`;
  return row!;
}

// Lists go in as `::text[]`: postgres.js may not know the array types yet on a fresh connection.
export async function updateWebhook(
  sql: Queryable,
  id: string,
  changes: Partial<OutgoingWebhookFields>,
  at: Date,
): Promise<OutgoingWebhookRow | undefined> {
  const [row] = await sql<OutgoingWebhookRow[]>`
    update outgoing_webhooks set
      name = coalesce(${changes.name ?? null}, name),
      url = coalesce(${changes.url ?? null}, url),
      events = coalesce(${changes.events ?? null}::text[], events),
      secret = case when ${changes.secret !== undefined} then ${changes.secret ?? null} else secret end,
      enabled = coalesce(${changes.enabled ?? null}, enabled),
      updated_at = ${at}
    where id = ${id} returning *`;
  return row;
}

/** Its deliveries go with it (cascade), pending ones included. */
export async function deleteWebhook(sql: Queryable, id: string): Promise<boolean> {
  const result = await sql`delete from outgoing_webhooks where id = ${id}`;
  return result.count > 0;
}

/**
 * The enabled webhooks that receive `event`, key-share locked until the transaction ends: a webhook
 * being deleted meanwhile is either skipped (deleted first) or waits for this transaction and then
 * takes its new deliveries with it. Without the lock, the delivery row's reference to a webhook deleted
 * a moment earlier would fail the incident change itself.
 */
export async function lockSubscribedWebhooks(sql: Queryable, event: string): Promise<string[]> {
  const rows = await sql<{ id: string }[]>`
    select id from outgoing_webhooks where enabled and ${event} = any(events)
    order by id for key share`;
  return rows.map((row) => row.id);
}

export interface NewDelivery {
  webhookId: string;
  incidentId: string;
  event: string;
  body: string;
  /** When the event happened: the first attempt is due then. */
  at: Date;
}

export async function insertDeliveries(sql: Queryable, deliveries: readonly NewDelivery[]): Promise<void> {
  if (deliveries.length === 0) return;
  const values = deliveries.map((d) => ({
    webhook_id: d.webhookId,
    incident_id: d.incidentId,
    event: d.event,
    body: d.body,
    next_attempt_at: d.at,
    created_at: d.at,
  }));
  await sql`insert into outgoing_webhook_deliveries ${sql(values as never)}`;
}

export interface DeliveryRow {
  id: string;
  webhook_id: string;
  incident_id: string;
  event: string;
  status: 'pending' | 'delivered' | 'failed';
  attempts: number;
  next_attempt_at: Date | null;
  last_status_code: number | null;
  last_error: string | null;
  last_duration_ms: number | null;
  created_at: Date;
  delivered_at: Date | null;
}

/** The delivery log: newest first. */
export async function listDeliveries(
  sql: Queryable,
  webhookId: string,
  limit: number,
): Promise<DeliveryRow[]> {
  return sql<DeliveryRow[]>`
    select id, webhook_id, incident_id, event, status, attempts, next_attempt_at, last_status_code,
           last_error, last_duration_ms, created_at, delivered_at
    from outgoing_webhook_deliveries where webhook_id = ${webhookId}
    order by seq desc limit ${limit}`;
}

/**
 * Runs `work` holding the line's lock, on one connection reserved for it, or returns undefined at
 * once when another worker holds it (it is delivering this line and takes what is due after it).
 *
 * The chat adapter's pattern (chat-lock.ts), for the same reasons: each outcome is recorded the moment
 * the target answered, so a 2xx is never lost with a later failure of the same run; "try" rather than
 * wait, so a slow target cannot queue jobs up holding pooled connections; the lock dies with its
 * connection, so a crashed worker cannot leave it held. The two-key form keeps these locks apart from
 * the single-key ones used elsewhere.
 */
export async function withWebhookLineLock<T>(
  sql: Sql,
  webhookId: string,
  incidentId: string,
  work: (connection: Queryable) => Promise<T>,
): Promise<{ value: T } | undefined> {
  // A failed unlock ends the session instead of handing the connection back still holding the lock.
  return withSessionAdvisoryLock(sql, [webhookId, incidentId], work);
}

/** The oldest pending delivery of a line, with what sending it needs. */
export interface LineHead {
  id: string;
  event: string;
  body: string;
  attempts: number;
  next_attempt_at: Date;
  created_at: Date;
  url: string;
  secret: string | null;
  enabled: boolean;
}

export async function findLineHead(
  sql: Queryable,
  webhookId: string,
  incidentId: string,
): Promise<LineHead | undefined> {
  const [row] = await sql<LineHead[]>`
    select d.id, d.event, d.body, d.attempts, d.next_attempt_at, d.created_at, w.url, w.secret, w.enabled
    from outgoing_webhook_deliveries d join outgoing_webhooks w on w.id = d.webhook_id
    where d.webhook_id = ${webhookId} and d.incident_id = ${incidentId} and d.status = 'pending'
    order by d.seq limit 1`;
  return row;
}

export interface DeliveryAttempt {
  /** Whether a request was made (false: the delivery expired behind an earlier one). */
  attempted: boolean;
  status: 'pending' | 'delivered' | 'failed';
  statusCode: number | null;
  error: string | null;
  durationMs: number | null;
  /** The next attempt, when `status` is still pending. */
  nextAttemptAt: Date | null;
  at: Date;
}

/** Records an attempt's outcome (only while the delivery is pending: a recorded end is final). */
export async function recordAttempt(sql: Queryable, id: string, attempt: DeliveryAttempt): Promise<void> {
  await sql`
    update outgoing_webhook_deliveries set
      status = ${attempt.status},
      attempts = attempts + ${attempt.attempted ? 1 : 0},
      last_status_code = ${attempt.statusCode},
      last_error = ${attempt.error},
      last_duration_ms = ${attempt.durationMs},
      next_attempt_at = ${attempt.status === 'pending' ? attempt.nextAttemptAt : null},
      delivered_at = ${attempt.status === 'delivered' ? attempt.at : null}
    where id = ${id} and status = 'pending'`;
}

export interface DueLine {
  webhook_id: string;
  incident_id: string;
}

/**
 * Lines of enabled webhooks whose head is due at `now`, longest waiting first. Only heads count: a
 * later delivery is due too, but waits for the one before it.
 */
export async function listDueLines(sql: Queryable, now: Date, limit: number): Promise<DueLine[]> {
  return sql<DueLine[]>`
    select d.webhook_id, d.incident_id
    from outgoing_webhook_deliveries d join outgoing_webhooks w on w.id = d.webhook_id and w.enabled
    where d.status = 'pending' and d.next_attempt_at <= ${now}
      and not exists (
        select 1 from outgoing_webhook_deliveries e
        where e.webhook_id = d.webhook_id and e.incident_id = d.incident_id
          and e.status = 'pending' and e.seq < d.seq)
    order by d.next_attempt_at limit ${limit}`;
}
