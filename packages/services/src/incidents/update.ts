import {
  ai,
  escalations,
  incidents,
  outbox,
  settings,
  type TransactionSql,
  timeline,
  users,
} from '@firebreak/db';
import { mttrSeconds, planStatusChange } from '@firebreak/domain';
import { type Actor, AppError, type Incident, type UpdateIncidentInput } from '@firebreak/schema';
import type { ServiceContext } from '../context';
import { queueWebhookEvent } from '../outgoing-webhooks/queue-event';
import { wantsAutoDraft } from '../postmortems/auto-draft';
import { ensurePostmortemDocument } from '../postmortems/ensure-document';
import { followupSettingsIn } from '../settings/followup-settings';
import { chatJobs } from './chat-jobs';
import { personOf, requireCommander } from './commander';
import { presentIncident } from './present';
import { incidentNotFound } from './ref';

type Row = incidents.IncidentRow;
type OutboxJob = outbox.OutboxJob;

/**
 * `PATCH /api/v1/incidents/{id}` and every other way of changing an incident (chat commands, card
 * buttons, the UI). One transaction holding the incident's row lock: each change writes its timeline
 * entry, and what the chat channel must hear goes to the outbox in the same transaction. A PATCH that
 * asks for a move the state machine refuses changes nothing at all (409 `invalid_transition`).
 */
export async function updateIncident(
  ctx: ServiceContext,
  actor: Actor,
  ref: incidents.IncidentRef,
  input: UpdateIncidentInput,
  /** How a status change arrived when not through the API or chat (a page's link, SMS, voice, push). */
  options: { via?: string } = {},
): Promise<Incident> {
  const id = await ctx.sql.begin(async (tx) => {
    const current = await incidents.lockIncident(tx, ref);
    if (!current) throw incidentNotFound(ref);
    const at = ctx.now();
    const jobs: OutboxJob[] = [];
    let row = current;
    row = await applyFieldChanges(tx, ctx, actor, row, input, at, jobs);
    // Each event snapshots the incident as it is at that point: `updated` before the status moves.
    if (row !== current) await queueWebhookEvent(tx, 'incident.updated', row.id, at);
    if (input.status) {
      const before = row;
      row = await applyStatusChange(tx, actor, row, input.status, at, jobs, ctx.features, options.via);
      if (row !== before) await queueWebhookEvent(tx, statusEvents[row.status], row.id, at);
    }
    await outbox.insertOutboxRows(tx, jobs);
    return row.id;
  });
  const view = await incidents.findIncidentView(ctx.sql, { id });
  return presentIncident(view!);
}

/** The webhook event of a status move (nothing moves back to triggered). */
const statusEvents = {
  triggered: 'incident.updated',
  acknowledged: 'incident.acknowledged',
  resolved: 'incident.resolved',
} as const;

/** Severity, title, description and commander; status is applied after them (see resolution order). */
async function applyFieldChanges(
  tx: TransactionSql,
  ctx: ServiceContext,
  actor: Actor,
  row: Row,
  input: UpdateIncidentInput,
  at: Date,
  jobs: OutboxJob[],
): Promise<Row> {
  const changes: incidents.IncidentFieldChanges = {};
  if (input.title !== undefined && input.title !== row.title) changes.title = input.title;
  if (input.description !== undefined && input.description !== row.description) {
    changes.description = input.description;
  }
  if (input.severity !== undefined && input.severity !== row.severity) changes.severity = input.severity;
  const commanderChanges = input.commander_id !== undefined && input.commander_id !== row.commander_id;
  const commander =
    commanderChanges && input.commander_id ? await requireCommander(tx, input.commander_id) : null;
  if (commanderChanges) changes.commander_id = commander?.id ?? null;
  if (Object.keys(changes).length === 0) return row;
  if (row.status === 'resolved' && (changes.severity || commanderChanges)) throw sealed();

  const updated = await incidents.updateIncidentFields(tx, row.id, changes, at);
  const post = async (type: 'severity_changed' | 'commander_assigned', data: Record<string, unknown>) => {
    const entry = await timeline.insertTimelineEntry(tx, { incidentId: row.id, type, actor, data, at });
    jobs.push(chatJobs.postEntry(row.id, entry.id));
  };
  if (changes.severity) await post('severity_changed', { from: row.severity, to: changes.severity });
  if (commanderChanges) {
    const previous = row.commander_id ? await users.findUserById(tx, row.commander_id) : undefined;
    await post('commander_assigned', {
      commander: commander ? personOf(commander) : null,
      previous: previous ? personOf(previous) : null,
    });
  }
  if (changes.title || changes.description !== undefined) {
    ctx.logger.info({ incident_id: row.id, fields: Object.keys(changes) }, 'incident details changed');
  }
  return updated;
}

async function applyStatusChange(
  tx: TransactionSql,
  actor: Actor,
  row: Row,
  to: Row['status'],
  at: Date,
  jobs: OutboxJob[],
  features: ServiceContext['features'],
  via?: string,
): Promise<Row> {
  const plan = planStatusChange(row.status, to);
  if (plan.kind === 'none') return row;
  if (plan.kind === 'invalid') {
    throw new AppError('invalid_transition', `An incident that is ${plan.from} cannot become ${plan.to}.`, {
      from: plan.from,
      to: plan.to,
    });
  }
  // The resolution order (docs/api.md#state-machine): resolved_at set (with MTTR, same statement), the
  // timeline entry, then the chat post of the resolution and the channel rename, as ordered outbox jobs.
  const updated = await incidents.changeStatus(tx, {
    id: row.id,
    from: plan.from,
    to: plan.to,
    at,
    mttrSeconds: plan.to === 'resolved' ? mttrSeconds(row.created_at, at) : null,
  });
  if (!updated) throw new Error(`incident ${row.id} changed status while locked`);
  // Acknowledge or resolve stops the on-call escalation (docs/api.md#state-machine), in the same transaction.
  await escalations.stopEscalation(tx, row.id, plan.to, at);
  const entry = await timeline.insertTimelineEntry(tx, {
    incidentId: row.id,
    type: 'status_changed',
    actor,
    data: {
      from: plan.from,
      to: plan.to,
      ...(updated.mttr_seconds !== null ? { mttr_seconds: updated.mttr_seconds } : {}),
      ...(via ? { via } : {}),
    },
    at,
  });
  jobs.push(chatJobs.postEntry(row.id, entry.id));
  if (plan.to === 'resolved') {
    jobs.push(chatJobs.markResolved(row.id));
    // After resolution a post-mortem is drafted (docs/ai.md#requests), when an AI provider is configured
    // and the incident lasted long enough (docs/postmortems.md#automatic-drafts).
    if (
      features.ai &&
      wantsAutoDraft(followupSettingsIn(await settings.listSettings(tx)), row.created_at, at)
    ) {
      // A draft already pending (asked for before the resolution) is the one: no second job.
      const draft = await ai.insertIncidentAiRequest(tx, { kind: 'postmortem', incidentId: row.id, at });
      if (draft.created) {
        await ensurePostmortemDocument(tx, row.id, at);
        jobs.push({ name: 'ai.postmortem', payload: { request_id: draft.row.id } });
      }
    }
  }
  return updated;
}

/**
 * A resolved incident's timeline is sealed; only title and description stay editable (docs/api.md#incidents).
 */
export function sealed(): AppError {
  return new AppError('conflict', 'The incident is resolved; its timeline is sealed.');
}
