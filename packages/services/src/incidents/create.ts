import { randomUUID } from 'node:crypto';
import { type alerts, incidents, type Queryable, type timeline } from '@firebreak/db';
import type { Actor, CreateIncidentInput, Incident, IncidentSource } from '@firebreak/schema';
import { alertLinkedEntry, intakeActor } from '../alerts/link';
import type { ServiceContext } from '../context';
import { startEscalation, startEscalations } from '../escalation/start';
import { wakeOutboxRelay } from '../outbox/wake-relay';
import { queueWebhookEventFor } from '../outgoing-webhooks/queue-event';
import { chatJobs } from './chat-jobs';
import { personOf, requireCommander } from './commander';
import { presentIncident } from './present';

export interface OpenIncidentOptions {
  source: IncidentSource;
  routingRuleId?: string | null;
  /** The routing rule's policy; without one, the installation default (docs/api.md#on-call). */
  escalationPolicyId?: string | null;
  /** The alert whose routing opens it, recorded on the row for analytics (docs/analytics.md). */
  openedByAlertId?: string | null;
  /** The group of its routing rule it opens, when the rule groups (docs/api.md#routing-rules). */
  groupKey?: string | null;
  /**
   * The alert it opens for, linked to it within the opening's own statement (the row, the
   * `alert_linked` entry and its post to the channel), exactly as `linkAlert` links one.
   */
  linkAlert?: { alert: alerts.AlertRow; routingRuleId: string | null };
  /**
   * The id the intake chose for this incident when it stored the alert already linked to it
   * (`alertBatches.insertAlerts`' pre-links): the incident takes it and the alert's row needs no update.
   */
  preLinkedId?: string;
  /**
   * More work that belongs to the opening (a storm's start), done before the `incident.created`
   * webhook event takes its picture of the incident, so the event shows it. It is started together
   * with the opening's own writes (the incident row exists for its statements, which run after the
   * opening's), so it should not wait between its own writes either.
   */
  completeOpening?: (incident: { id: string }) => Promise<void>;
}

/**
 * Opens an incident inside the caller's transaction (alert intake opens incidents in the same
 * transaction as the alert): the row, its `incident_created` entry, the commander if one is named,
 * the outbox row that opens its chat channel, the link of the alert that opened it and the start of
 * its escalation.
 *
 * Two round trips (three with subscribed outgoing webhooks, which need the finished incident's
 * picture): the number, the policy and the subscribed webhooks are read first, then everything is
 * written at once — the incident, its entries, its outbox rows and the alert's link in one statement,
 * the escalation pipelined behind it (postgres.js pipelines a transaction's queries, and PostgreSQL
 * runs them in the order sent). The ids are chosen here. The transaction does not NOTIFY the outbox
 * relay (that would make concurrent openings commit one at a time): the caller MUST call
 * `announceIncident` after its commit, which wakes the relay. An incident opening is what an outage is
 * made of, so its cost is the cost of a storm (docs/decisions.md#incident-opening-in-two-round-trips).
 */
export async function openIncident(
  tx: Queryable,
  ctx: ServiceContext,
  actor: Actor,
  input: CreateIncidentInput,
  options: OpenIncidentOptions,
): Promise<incidents.IncidentRow> {
  const at = ctx.now();
  const [commander, reserved] = await Promise.all([
    input.commander_id ? requireCommander(tx, input.commander_id) : undefined,
    incidents.reserveIncidentOpening(tx, options.escalationPolicyId ?? null),
  ]);
  const id = options.preLinkedId ?? randomUUID();
  const policyId = reserved.escalationPolicyId;
  const writes = openingWrites({ id, reserved, actor, input, options, commander, at });
  const [row] = await Promise.all([
    incidents.insertOpening(tx, writes),
    policyId ? startEscalation(tx, id, policyId, at) : undefined,
    options.completeOpening?.({ id }),
  ]);
  await queueWebhookEventFor(tx, reserved.webhookIds, 'incident.created', id, at);
  return row;
}

/** An incident an alert opens, as routing decided it (`openIncident`'s input and options). */
export interface AlertOpening {
  input: CreateIncidentInput;
  options: OpenIncidentOptions & { linkAlert: NonNullable<OpenIncidentOptions['linkAlert']> };
}

/**
 * Opens several alerts' incidents at once, in the caller's transaction (an intake transaction that
 * records many requests' alerts, docs/decisions.md#intake-in-company): exactly what `openIncident`
 * writes for each, but in the same two round trips however many they are — one reserves every number
 * and policy, one statement writes every incident, entry, outbox row and link, the escalations'
 * insert pipelined behind it. Numbers follow the order given. No commander, no `completeOpening`:
 * what routing opens for an alert has neither. The caller announces each after its commit.
 */
export async function openAlertIncidents(
  tx: Queryable,
  ctx: ServiceContext,
  openings: readonly AlertOpening[],
): Promise<incidents.IncidentRow[]> {
  const at = ctx.now();
  const { openings: reserved, webhookIds } = await incidents.reserveIncidentOpenings(
    tx,
    openings.map(({ options }) => options.escalationPolicyId ?? null),
  );
  const writes = openings.map(({ input, options }, i) =>
    openingWrites({
      id: options.preLinkedId ?? randomUUID(),
      reserved: reserved[i]!,
      actor: intakeActor,
      input,
      options,
      commander: undefined,
      at,
    }),
  );
  const started = writes.flatMap(({ incident }) =>
    incident.escalationPolicyId
      ? [{ incidentId: incident.id, policyId: incident.escalationPolicyId, at }]
      : [],
  );
  const [rows] = await Promise.all([incidents.insertOpenings(tx, writes), startEscalations(tx, started)]);
  for (const row of rows) await queueWebhookEventFor(tx, webhookIds, 'incident.created', row.id, at);
  return rows;
}

/**
 * An opening's writes besides its escalation (`incidents.insertOpenings`): the row, its
 * `incident_created` entry, the commander's entry if one is named, the link of the alert that opened it
 * with its entry, and the one outbox row that opens its chat channel and posts those entries there.
 */
function openingWrites(opening: {
  id: string;
  reserved: incidents.ReservedOpening;
  actor: Actor;
  input: CreateIncidentInput;
  options: OpenIncidentOptions;
  commander: Awaited<ReturnType<typeof requireCommander>> | undefined;
  at: Date;
}): incidents.OpeningWrites {
  const { id, reserved, actor, input, options, commander, at } = opening;
  const entries: Array<timeline.InsertTimelineEntry & { id: string }> = [
    {
      id: randomUUID(),
      incidentId: id,
      type: 'incident_created',
      actor,
      data: { title: input.title, severity: input.severity, source: options.source, number: reserved.number },
      at,
    },
  ];
  if (commander) {
    entries.push({
      id: randomUUID(),
      incidentId: id,
      type: 'commander_assigned',
      actor,
      data: { commander: personOf(commander), previous: null },
      at,
    });
  }
  const link = options.linkAlert;
  if (link) entries.push(alertLinkedEntry(link.alert, id, { at }));
  return {
    incident: {
      id,
      number: reserved.number,
      title: input.title,
      description: input.description ?? '',
      severity: input.severity,
      source: options.source,
      commanderId: commander?.id ?? null,
      escalationPolicyId: reserved.escalationPolicyId,
      routingRuleId: options.routingRuleId ?? null,
      openedByAlertId: options.openedByAlertId ?? null,
      groupKey: options.groupKey ?? null,
      createdAt: at,
    },
    entries,
    // One job: opening the channel posts every entry written with it (the lead, the alert's link).
    jobs: [chatJobs.openChannel(id)],
    ...(link
      ? {
          linkedAlert: {
            id: link.alert.id,
            routingRuleId: link.routingRuleId,
            preLinked: options.preLinkedId !== undefined,
          },
        }
      : {}),
  };
}

/**
 * Announces an incident once its transaction committed: wakes the outbox relay (the opening deferred
 * that), the `incident created` log line (docs/api.md#logs) and the counter.
 */
export function announceIncident(ctx: ServiceContext, row: incidents.IncidentRow): void {
  wakeOutboxRelay(ctx);
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
