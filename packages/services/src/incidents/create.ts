import { incidents, outbox, type Queryable, timeline } from '@firebreak/db';
import type { Actor, CreateIncidentInput, Incident, IncidentSource } from '@firebreak/schema';
import type { ServiceContext } from '../context';
import { chooseEscalationPolicy, startEscalation } from '../escalation/start';
import { queueWebhookEvent } from '../outgoing-webhooks/queue-event';
import { chatJobs } from './chat-jobs';
import { personOf, requireCommander } from './commander';
import { presentIncident } from './present';

export interface OpenIncidentOptions {
  source: IncidentSource;
  routingRuleId?: string | null;
  escalationPolicyId?: string | null;
  /**
   * Work that belongs to the opening (linking the alert that opened it), done before the
   * `incident.created` webhook event takes its picture of the incident, so the event shows it.
   */
  completeOpening?: (incident: incidents.IncidentRow) => Promise<void>;
}

/**
 * Opens an incident inside the caller's transaction (alert intake opens incidents in the same
 * transaction as the alert): the row, its `incident_created` entry, the commander if one is named,
 * and the outbox row that opens its chat channel. Returns the new incident's id.
 */
export async function openIncident(
  tx: Queryable,
  ctx: ServiceContext,
  actor: Actor,
  input: CreateIncidentInput,
  options: OpenIncidentOptions,
): Promise<incidents.IncidentRow> {
  const at = ctx.now();
  const commander = input.commander_id ? await requireCommander(tx, input.commander_id) : undefined;
  const policyId = await chooseEscalationPolicy(tx, options.escalationPolicyId ?? null);
  const row = await incidents.insertIncident(tx, {
    title: input.title,
    description: input.description ?? '',
    severity: input.severity,
    source: options.source,
    commanderId: commander?.id ?? null,
    escalationPolicyId: policyId,
    routingRuleId: options.routingRuleId ?? null,
    createdAt: at,
  });
  await timeline.insertTimelineEntry(tx, {
    incidentId: row.id,
    type: 'incident_created',
    actor,
    data: { title: row.title, severity: row.severity, source: row.source, number: row.number },
    at,
  });
  if (commander) {
    await timeline.insertTimelineEntry(tx, {
      incidentId: row.id,
      type: 'commander_assigned',
      actor,
      data: { commander: personOf(commander), previous: null },
      at,
    });
  }
  await outbox.insertOutboxRows(tx, [chatJobs.openChannel(row.id)]);
  if (policyId) await startEscalation(tx, row.id, policyId, at);
  await options.completeOpening?.(row);
  await queueWebhookEvent(tx, 'incident.created', row.id, at);
  return row;
}

/**
 * Announces an incident once its transaction committed: the `incident created` log line (docs/api.md#logs)
 * and the counter.
 */
export function announceIncident(ctx: ServiceContext, row: incidents.IncidentRow): void {
  ctx.metrics.incidentsCreated.inc({ source: row.source });
  ctx.logger.info(
    { incident_id: row.id, number: row.number, severity: row.severity, source: row.source },
    'incident created',
  );
}

/** `POST /api/v1/incidents`, the UI's New Incident and `/incident new`. */
export async function createIncident(
  ctx: ServiceContext,
  actor: Actor,
  input: CreateIncidentInput,
  source: IncidentSource = 'manual',
): Promise<Incident> {
  const row = await ctx.sql.begin((tx) => openIncident(tx, ctx, actor, input, { source }));
  announceIncident(ctx, row);
  const view = await incidents.findIncidentView(ctx.sql, { id: row.id });
  return presentIncident(view!);
}
