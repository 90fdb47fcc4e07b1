import type { Queryable } from './client';

export type AiKind = 'summary' | 'postmortem' | 'handoff_digest' | 'chat_answer';

export interface AiRequestRow {
  id: string;
  kind: AiKind;
  incident_id: string | null;
  status: 'pending' | 'done' | 'failed';
  error: string | null;
  created_at: Date;
  finished_at: Date | null;
}

export async function insertAiRequest(
  sql: Queryable,
  request: { kind: AiKind; incidentId: string | null; at: Date },
): Promise<AiRequestRow> {
  const [row] = await sql<AiRequestRow[]>`
    insert into ai_requests (kind, incident_id, created_at)
    values (${request.kind}, ${request.incidentId}, ${request.at})
    returning *`;
  return row!;
}

/**
 * A summary or post-mortem request for an incident, unless one of that kind is already pending: then
 * that one (`created` false). The unique index `ai_requests_one_pending_idx` decides between concurrent
 * requests; the loser waits for the winner's transaction and then reads its row.
 */
export async function insertIncidentAiRequest(
  sql: Queryable,
  request: { kind: Exclude<AiKind, 'handoff_digest'>; incidentId: string; at: Date },
): Promise<{ row: AiRequestRow; created: boolean }> {
  // Twice at most: the pending row found by the conflict may finish before it is read.
  for (let attempt = 0; attempt < 2; attempt++) {
    const [inserted] = await sql<AiRequestRow[]>`
      insert into ai_requests (kind, incident_id, created_at)
      values (${request.kind}, ${request.incidentId}, ${request.at})
      on conflict (incident_id, kind) where status = 'pending' and incident_id is not null do nothing
      returning *`;
    if (inserted) return { row: inserted, created: true };
    const [pending] = await sql<AiRequestRow[]>`
      select * from ai_requests
      where incident_id = ${request.incidentId} and kind = ${request.kind} and status = 'pending'`;
    if (pending) return { row: pending, created: false };
  }
  throw new Error('ai request: a pending request appeared and vanished twice');
}

export async function findAiRequest(sql: Queryable, id: string): Promise<AiRequestRow | undefined> {
  const [row] = await sql<AiRequestRow[]>`select * from ai_requests where id = ${id}`;
  return row;
}

/** Marks a request finished; only a pending one, so a retried job cannot flip a result. */
export async function finishAiRequest(
  sql: Queryable,
  id: string,
  outcome: { status: 'done' | 'failed'; error?: string; at: Date },
): Promise<boolean> {
  const result = await sql`
    update ai_requests set status = ${outcome.status}, error = ${outcome.error ?? null}, finished_at = ${outcome.at}
    where id = ${id} and status = 'pending'`;
  return result.count > 0;
}

export interface HandoffDigestRow extends AiRequestRow {
  since: Date;
  until: Date;
  content: string | null;
}

export async function insertHandoffDigest(sql: Queryable, digest: { id: string; since: Date; until: Date }) {
  await sql`insert into handoff_digests (id, since, until) values (${digest.id}, ${digest.since}, ${digest.until})`;
}

export async function findHandoffDigest(sql: Queryable, id: string): Promise<HandoffDigestRow | undefined> {
  const [row] = await sql<HandoffDigestRow[]>`
    select r.*, d.since, d.until, d.content from handoff_digests d join ai_requests r on r.id = d.id
    where d.id = ${id}`;
  return row;
}

export async function setHandoffDigestContent(sql: Queryable, id: string, content: string): Promise<void> {
  await sql`update handoff_digests set content = ${content} where id = ${id}`;
}

// The post-mortem document and the draft it holds: postmortems.ts.

/** The newest post-mortem request of an incident (pending, done or failed). */
export async function latestPostmortemRequest(
  sql: Queryable,
  incidentId: string,
): Promise<AiRequestRow | undefined> {
  const [row] = await sql<AiRequestRow[]>`
    select * from ai_requests where incident_id = ${incidentId} and kind = 'postmortem'
    order by created_at desc, id desc limit 1`;
  return row;
}

export interface HandoffIncidentRow {
  number: number;
  title: string;
  severity: string;
  status: string;
  created_at: Date;
  resolved_at: Date | null;
  /** Timeline entries written in the window. */
  changes: number;
}

/** Incidents that were opened, changed or resolved in a window, or are still open (the handoff). */
export async function listHandoffIncidents(
  sql: Queryable,
  since: Date,
  until: Date,
): Promise<HandoffIncidentRow[]> {
  return sql<HandoffIncidentRow[]>`
    select i.number, i.title, i.severity, i.status, i.created_at, i.resolved_at,
           (select count(*)::int from timeline_entries t
             where t.incident_id = i.id and t.created_at >= ${since} and t.created_at < ${until}) as changes
    from incidents i
    where (i.created_at >= ${since} and i.created_at < ${until})
       or (i.resolved_at >= ${since} and i.resolved_at < ${until})
       or (i.status <> 'resolved' and i.created_at < ${until})
       or exists (select 1 from timeline_entries t
                   where t.incident_id = i.id and t.created_at >= ${since} and t.created_at < ${until})
    order by i.number
    limit 500`;
}
