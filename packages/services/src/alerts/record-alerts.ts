import { alerts, incidents, routingRules, type TransactionSql } from '@firebreak/db';
import { byEvaluationOrder } from '@firebreak/domain';
import type { AlertInput } from '@firebreak/schema';
import type { ServiceContext } from '../context';
import { announceIncident } from '../incidents/create';
import { emptyResult, type IntakeResult } from './intake-result';
import { flagIfAllAlertsResolved, linkAlert } from './link';
import { routeAlert } from './route-alert';

/** Which webhook received the alerts: part of their identity (dedup is per integration). */
export type Integration = 'generic' | 'alertmanager' | 'grafana' | 'cloudwatch';

// Two batches touching the same alerts in different orders can deadlock; PostgreSQL then aborts one,
// and it is safe to run it again because nothing of it was committed.
const RETRYABLE_SQLSTATES = new Set(['40P01', '40001']);
const ATTEMPTS = 3;

/**
 * Stores a batch of alerts from one webhook request in ONE transaction (a rejected request stores
 * nothing; an accepted one stores everything), deduplicating by (integration, external_id or
 * fingerprint) and routing what fires. Incidents it opens are announced only after the commit.
 */
export async function recordAlerts(
  ctx: ServiceContext,
  integration: Integration,
  inputs: readonly AlertInput[],
  receivedAt: Date = ctx.now(),
): Promise<IntakeResult> {
  for (let attempt = 1; ; attempt++) {
    try {
      const { result, opened } = await ctx.sql.begin((tx) =>
        recordInTransaction(tx, ctx, integration, inputs, receivedAt),
      );
      for (const incident of opened) announceIncident(ctx, incident);
      ctx.metrics.alertsReceived.inc({ integration }, inputs.length);
      for (const alert of result.alerts) {
        ctx.logger.info(
          { alert_id: alert.id, integration, status: alert.status, incident_id: alert.incident_id },
          'alert received',
        );
      }
      return result;
    } catch (error) {
      const code = (error as { code?: string }).code;
      if (attempt >= ATTEMPTS || !code || !RETRYABLE_SQLSTATES.has(code)) throw error;
      ctx.logger.warn({ attempt, code }, 'alert batch conflicted with another; retrying');
    }
  }
}

async function recordInTransaction(
  tx: TransactionSql,
  ctx: ServiceContext,
  integration: Integration,
  inputs: readonly AlertInput[],
  at: Date,
): Promise<{ result: IntakeResult; opened: incidents.IncidentRow[] }> {
  const rules = (await routingRules.listRoutingRules(tx, { enabledOnly: true })).sort(byEvaluationOrder);
  await lockKnownAlerts(tx, integration, inputs);
  const result = emptyResult(inputs.length);
  const opened: incidents.IncidentRow[] = [];

  for (const input of inputs) {
    const stored = await upsert(tx, integration, input, at);
    let alert = stored.alert;
    if (stored.kind === 'created') result.created += 1;
    else if (stored.kind === 'resolved') result.resolved += 1;
    else result.updated += 1;

    if (stored.kind === 'resolved' && alert.incident_id)
      await flagIfAllAlertsResolved(tx, alert.incident_id, at);
    const needsRouting =
      alert.status === 'firing' && (stored.kind === 'created' || stored.kind === 'refired');
    if (needsRouting) {
      const linkedOpen = stored.kind === 'refired' ? await openIncidentOf(tx, alert) : undefined;
      if (linkedOpen) {
        // The problem came back while its incident is still open: same incident, flag cleared.
        await linkAlert(tx, alert, linkedOpen.id, {
          routingRuleId: alert.routing_rule_id,
          refired: true,
          at,
        });
        await incidents.setAllAlertsResolved(tx, linkedOpen.id, false, at);
      } else {
        const outcome = await routeAlert(tx, ctx, alert, rules, at);
        if (outcome.kind === 'suppressed') result.suppressed += 1;
        if (outcome.kind === 'opened') {
          result.incidents_created += 1;
          opened.push(outcome.incident);
        }
        const incidentId =
          outcome.kind === 'opened'
            ? outcome.incident.id
            : outcome.kind === 'grouped'
              ? outcome.incidentId
              : null;
        alert = { ...alert, incident_id: incidentId };
      }
    }
    result.alerts.push({
      id: alert.id,
      external_id: alert.external_id,
      status: alert.status,
      incident_id: alert.incident_id,
    });
  }
  return { result, opened };
}

type Stored = { kind: 'created' | 'updated' | 'resolved' | 'refired'; alert: alerts.AlertRow };

/** Inserts a new alert or updates the known one, telling which of the four things happened. */
async function upsert(
  tx: TransactionSql,
  integration: Integration,
  input: AlertInput,
  at: Date,
): Promise<Stored> {
  const key = alerts.dedupKeyOf(input);
  let existing = key ? await alerts.lockAlertByKey(tx, integration, key) : undefined;
  if (!existing) {
    const inserted = await alerts.insertAlert(tx, integration, input, at);
    if (inserted) return { kind: 'created', alert: inserted };
    existing = await alerts.lockAlertByKey(tx, integration, key!); // a concurrent batch inserted it first
    if (!existing) throw new Error(`alert ${key} vanished while being recorded`);
  }
  const refired = existing.status === 'resolved' && input.status === 'firing';
  const resolving = existing.status === 'firing' && input.status === 'resolved';
  const endedAt = input.status === 'resolved' ? (input.endedAt ?? existing.ended_at ?? at) : null;
  const alert = await alerts.updateAlert(tx, existing.id, input, { refired, endedAt, at });
  return { kind: refired ? 'refired' : resolving ? 'resolved' : 'updated', alert };
}

/** Locks, in one sorted pass, the alerts this batch will update, so concurrent batches queue rather than deadlock. */
async function lockKnownAlerts(tx: TransactionSql, integration: Integration, inputs: readonly AlertInput[]) {
  const keys = [
    ...new Set(inputs.map(alerts.dedupKeyOf).filter((key): key is string => key !== null)),
  ].sort();
  if (keys.length === 0) return;
  await tx`
    select id from alerts where integration = ${integration} and dedup_key = any(${keys})
    order by dedup_key for update`;
}

async function openIncidentOf(tx: TransactionSql, alert: alerts.AlertRow) {
  if (!alert.incident_id) return undefined;
  const incident = await incidents.lockIncident(tx, { id: alert.incident_id });
  return incident && incident.status !== 'resolved' ? incident : undefined;
}
