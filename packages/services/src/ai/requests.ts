import { ai, incidents, outbox } from '@firebreak/db';
import { type AiJob, AppError, type HandoffDigest, type HandoffDigestInput } from '@firebreak/schema';
import type { ServiceContext } from '../context';
import { incidentNotFound } from '../incidents/ref';
import { ensurePostmortemDocument } from '../postmortems/ensure-document';

/**
 * The AI features (docs/ai.md#requests) as requests: a row that says pending/done/failed, and an outbox
 * row that wakes the worker (the only process that talks to the AI provider). The API answers 202 at
 * once; the result lands as a timeline entry, a stored digest or the post-mortem document.
 */

export function requireAi(configured: boolean): void {
  if (!configured) {
    throw new AppError(
      'ai_not_configured',
      'No AI provider is configured (set AI_PROVIDER, AI_API_KEY, AI_MODEL).',
    );
  }
}

export function presentAiJob(row: ai.AiRequestRow): AiJob {
  return {
    id: row.id,
    kind: row.kind,
    incident_id: row.incident_id,
    status: row.status,
    error: row.error,
    created_at: row.created_at.toISOString(),
    finished_at: row.finished_at?.toISOString() ?? null,
  };
}

/**
 * One pending request per incident and kind (docs/ai.md#requests): asking again while one is pending
 * answers the pending one's id and queues nothing, so a double click or a retrying client does not pay
 * the provider twice.
 */
async function request(ctx: ServiceContext, kind: 'summary' | 'postmortem', ref: incidents.IncidentRef) {
  return ctx.sql.begin(async (tx) => {
    const incident = await incidents.findIncidentView(tx, ref);
    if (!incident) throw incidentNotFound(ref);
    const { row, created } = await ai.insertIncidentAiRequest(tx, {
      kind,
      incidentId: incident.id,
      at: ctx.now(),
    });
    if (!created) return row;
    // The draft lands in the incident's document; it exists from now, so GET shows the draft's progress.
    if (kind === 'postmortem') await ensurePostmortemDocument(tx, incident.id, row.created_at);
    await outbox.insertOutboxRows(tx, [
      kind === 'summary'
        ? { name: 'ai.summarize', payload: { request_id: row.id } }
        : { name: 'ai.postmortem', payload: { request_id: row.id } },
    ]);
    return row;
  });
}

/** `POST /api/v1/incidents/{id}/summary` → 202 `{job_id}`. */
export async function requestSummary(
  ctx: ServiceContext,
  ref: incidents.IncidentRef,
): Promise<{ job_id: string }> {
  return { job_id: (await request(ctx, 'summary', ref)).id };
}

/** `POST /api/v1/incidents/{id}/postmortem` (a redraft) → 202 `{job_id}`. */
export async function requestPostmortem(
  ctx: ServiceContext,
  ref: incidents.IncidentRef,
): Promise<{ job_id: string }> {
  return { job_id: (await request(ctx, 'postmortem', ref)).id };
}

const HANDOFF_DEFAULT_HOURS = 12;

/** `POST /api/v1/handoff-digests` → 202 `{id}`. */
export async function requestHandoffDigest(
  ctx: ServiceContext,
  input: HandoffDigestInput,
): Promise<{ id: string }> {
  const until = input.until ? new Date(input.until) : ctx.now();
  const since = input.since
    ? new Date(input.since)
    : new Date(until.getTime() - HANDOFF_DEFAULT_HOURS * 3_600_000);
  const row = await ctx.sql.begin(async (tx) => {
    const created = await ai.insertAiRequest(tx, { kind: 'handoff_digest', incidentId: null, at: ctx.now() });
    await ai.insertHandoffDigest(tx, { id: created.id, since, until });
    await outbox.insertOutboxRows(tx, [{ name: 'ai.handoff_digest', payload: { request_id: created.id } }]);
    return created;
  });
  return { id: row.id };
}

export async function getHandoffDigest(ctx: ServiceContext, id: string): Promise<HandoffDigest> {
  const row = await ai.findHandoffDigest(ctx.sql, id);
  if (!row) throw new AppError('not_found', `No handoff digest ${id}.`);
  return {
    id: row.id,
    status: row.status,
    content: row.content,
    since: row.since.toISOString(),
    until: row.until.toISOString(),
    error: row.error,
    created_at: row.created_at.toISOString(),
  };
}

export async function getAiJob(ctx: ServiceContext, id: string): Promise<AiJob> {
  const row = await ai.findAiRequest(ctx.sql, id);
  if (!row) throw new AppError('not_found', `No AI job ${id}.`);
  return presentAiJob(row);
}
