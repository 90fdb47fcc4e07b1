import { alertBatches, alerts, incidents, routingRules, type TransactionSql } from '@firebreak/db';
import { type AlertUpdate, byEvaluationOrder, planAlertUpdate } from '@firebreak/domain';
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
  const stored = await storeBatch(tx, integration, inputs, at);
  const result = emptyResult(inputs.length);
  const opened: incidents.IncidentRow[] = [];

  for (const { kind, alert: storedAlert, incidentFlag } of stored) {
    let alert = storedAlert;
    if (kind === 'created') result.created += 1;
    else if (kind === 'resolved') result.resolved += 1;
    else result.updated += 1;

    if (incidentFlag === 'recount' && alert.incident_id)
      await flagIfAllAlertsResolved(tx, alert.incident_id, at);
    const needsRouting = alert.status === 'firing' && (kind === 'created' || kind === 'refired');
    if (needsRouting) {
      const linkedOpen = kind === 'refired' ? await openIncidentOf(tx, alert) : undefined;
      if (linkedOpen) {
        // The problem came back while its incident is still open: same incident, flag cleared.
        await linkAlert(tx, alert, linkedOpen.id, {
          routingRuleId: alert.routing_rule_id,
          refired: true,
          at,
        });
        if (incidentFlag === 'clear') await incidents.setAllAlertsResolved(tx, linkedOpen.id, false, at);
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

type StoredKind = 'created' | 'updated' | 'resolved' | 'refired';
/** What storing did to each alert, and what its incident's all-resolved flag needs (see planAlertUpdate). */
type Stored = { kind: StoredKind; alert: alerts.AlertRow; incidentFlag: AlertUpdate['incidentFlag'] };

/**
 * Stores the batch set-wise: lock the known alerts (sorted, one query), insert the new ones (one
 * query), update the known ones (one query). A batch that names the same alert twice is applied one
 * alert at a time instead, so each delivery sees the one before it.
 */
async function storeBatch(
  tx: TransactionSql,
  integration: Integration,
  inputs: readonly AlertInput[],
  at: Date,
): Promise<Stored[]> {
  const keys = inputs.map(alerts.dedupKeyOf);
  const present = keys.filter((key): key is string => key !== null);
  const unchanged = await unchangedDeliveries(tx, integration, inputs, keys, at);
  if (unchanged) return unchanged;
  const known = await alertBatches.lockAlertsByKeys(tx, integration, [...new Set(present)].sort());
  if (new Set(present).size !== present.length) {
    const stored: Stored[] = [];
    for (const input of inputs) stored.push(await storeOne(tx, integration, input, at));
    return stored;
  }
  // Inserted in key order: two batches inserting the same new alerts then wait on each other instead
  // of deadlocking (the insert's unique-index waits follow the order rows are written in).
  const fresh = inputs
    .filter((_, i) => keys[i] === null || !known.has(keys[i]!))
    .sort((a, b) => (alerts.dedupKeyOf(a) ?? '').localeCompare(alerts.dedupKeyOf(b) ?? ''));
  const inserted = await alertBatches.insertAlerts(tx, integration, fresh, at);
  const created = new Map(fresh.map((input, i) => [input, inserted[i]]));
  // Inserted by a concurrent batch between our lock and our insert: they are known alerts now, locked
  // in one sorted query. (One query per alert made 32 senders of the same new batch queue for seconds:
  // each held its locks across a hundred round trips.)
  const raced = [...created].filter(([, row]) => !row).map(([input]) => alerts.dedupKeyOf(input)!);
  for (const [key, row] of await alertBatches.lockAlertsByKeys(tx, integration, raced.sort())) {
    known.set(key, row);
  }
  const plans = inputs.flatMap((input, i) => {
    const existing = created.get(input) ? undefined : known.get(keys[i]!);
    return existing ? [{ input, existing, ...planAlertUpdate(existing, input, at) }] : [];
  });
  const updated = await alertBatches.updateAlerts(
    tx,
    plans.map((plan) => ({
      id: plan.existing.id,
      input: plan.input,
      refired: plan.kind === 'refired',
      endedAt: plan.endedAt,
    })),
    at,
  );
  const updates = new Map(
    plans.map((plan, i): [AlertInput, Stored] => [
      plan.input,
      { kind: plan.kind, alert: updated[i]!, incidentFlag: plan.incidentFlag },
    ]),
  );
  return inputs.map((input) => {
    const row = created.get(input);
    return row
      ? { kind: 'created' as const, alert: row, incidentFlag: 'keep' as const }
      : updates.get(input)!;
  });
}

/**
 * Alertmanager and Grafana re-send whole groups every few minutes, mostly unchanged. A batch that
 * changes nothing (every alert known, same status and content) is answered from a plain read: no row
 * lock, no write. Anything else goes the locking way.
 */
async function unchangedDeliveries(
  tx: TransactionSql,
  integration: Integration,
  inputs: readonly AlertInput[],
  keys: ReadonlyArray<string | null>,
  at: Date,
): Promise<Stored[] | undefined> {
  if (keys.some((key) => key === null)) return undefined;
  const known = await alertBatches.findAlertsByKeys(tx, integration, [...new Set(keys as string[])]);
  const stored: Stored[] = [];
  for (const [i, input] of inputs.entries()) {
    const existing = known.get(keys[i]!);
    if (!existing || !planAlertUpdate(existing, input, at).unchanged) return undefined;
    stored.push({ kind: 'updated', alert: existing, incidentFlag: 'keep' });
  }
  return stored;
}

/** One alert at a time: insert it, or lock and update the known one. */
async function storeOne(
  tx: TransactionSql,
  integration: Integration,
  input: AlertInput,
  at: Date,
): Promise<Stored> {
  const key = alerts.dedupKeyOf(input);
  let existing = key ? await alerts.lockAlertByKey(tx, integration, key) : undefined;
  if (!existing) {
    const inserted = await alerts.insertAlert(tx, integration, input, at);
    if (inserted) return { kind: 'created', alert: inserted, incidentFlag: 'keep' };
    existing = await alerts.lockAlertByKey(tx, integration, key!); // a concurrent batch inserted it first
    if (!existing) throw new Error(`alert ${key} vanished while being recorded`);
  }
  const plan = planAlertUpdate(existing, input, at);
  const alert = await alerts.updateAlert(tx, existing.id, input, {
    refired: plan.kind === 'refired',
    endedAt: plan.endedAt,
    at,
  });
  return { kind: plan.kind, alert, incidentFlag: plan.incidentFlag };
}

async function openIncidentOf(tx: TransactionSql, alert: alerts.AlertRow) {
  if (!alert.incident_id) return undefined;
  const incident = await incidents.lockIncident(tx, { id: alert.incident_id });
  return incident && incident.status !== 'resolved' ? incident : undefined;
}
