import {
  alertBatches,
  alerts,
  incidents,
  integrations,
  maintenanceWindows,
  routingRules,
  type TransactionSql,
} from '@firebreak/db';
import {
  type AlertUpdate,
  byEvaluationOrder,
  holdingWindow,
  planAlertUpdate,
  type WebhookIntegrationId,
} from '@firebreak/domain';
import type { AlertInput } from '@firebreak/schema';
import type { ServiceContext } from '../context';
import { announceIncident } from '../incidents/create';
import { unknownIntakeKey } from '../integrations/intake';
import { retryOnConflict } from '../retry-conflicts';
import { retryCutOff } from '../retry-cut-off';
import { emptyResult, type IntakeResult } from './intake-result';
import { fixedWebhookSource, type IntakeSource } from './intake-source';
import { flagIfAllAlertsResolved, linkAlert } from './link';
import { openPlainIncidentsTogether } from './open-together';
import { recordInCompany } from './record-in-company';
import { incidentOf, preLinkFor, routeAlert } from './route-alert';

/**
 * Stores a batch of alerts from one webhook request in ONE transaction (a rejected request stores
 * nothing; an accepted one stores everything), deduplicating by (integration, external_id or
 * fingerprint) and routing what fires. Incidents it opens are announced only after the commit. The
 * transaction may be shared with requests that arrived meanwhile (`recordInCompany`); the answer is
 * this request's own alerts either way.
 */
export async function recordAlerts(
  ctx: ServiceContext,
  from: WebhookIntegrationId | IntakeSource,
  sent: readonly AlertInput[],
  receivedAt: Date = ctx.now(),
): Promise<IntakeResult> {
  const source = typeof from === 'string' ? fixedWebhookSource(from) : from;
  const inputs = withIntegrationLabels(sent, source.labels);
  // Keyed batches may share a transaction with other requests (recordInCompany): if that transaction
  // fails, each request runs again alone, and a second run finds a first one's alerts by their keys.
  // Alerts without a key would be stored again, so such a batch always has a transaction of its own.
  const keyed = inputs.every((input) => alerts.dedupKeyOf(input) !== null);
  const outcomes = keyed
    ? await recordInCompany(ctx, source, inputs, receivedAt, (batch, at) =>
        recordBatch(ctx, source, batch, at, { keyed: true }),
      )
    : await recordBatch(ctx, source, inputs, receivedAt, { keyed: false });
  for (const incident of openedBy(outcomes)) announceIncident(ctx, incident);
  const result = resultOf(outcomes);
  ctx.metrics.alertsReceived.inc({ integration: source.type }, inputs.length);
  for (const alert of result.alerts) {
    ctx.logger.info(
      {
        alert_id: alert.id,
        integration: source.type,
        integration_id: source.integrationId ?? undefined,
        status: alert.status,
        incident_id: alert.incident_id,
      },
      'alert received',
    );
  }
  return result;
}

/**
 * Stores a batch in ONE transaction (a rejected batch stores nothing; an accepted one everything).
 * Two batches touching the same alerts in different orders can deadlock; PostgreSQL then aborts one,
 * which runs again.
 */
async function recordBatch(
  ctx: ServiceContext,
  source: IntakeSource,
  inputs: readonly AlertInput[],
  at: Date,
  { keyed }: { keyed: boolean },
): Promise<AlertOutcome[]> {
  const record = () =>
    retryOnConflict(
      () =>
        ctx.sql.begin(async (tx) => {
          if (source.integrationId !== null) await requireIntakeIntegration(tx, source.integrationId);
          return recordOutcomes(tx, ctx, source, inputs, at);
        }),
      (attempt, code) => ctx.logger.warn({ attempt, code }, 'alert batch conflicted with another; retrying'),
    );
  // A batch cut off by a failover may have committed: run again, it finds its alerts by their keys
  // and stores nothing twice. Alerts without a key (no external_id, no fingerprint) would be stored
  // again, so such a batch is not retried here; its sender retries the 500 as it sees fit.
  return keyed ? retryCutOff(ctx, 'alert batch', record) : record();
}

/**
 * A keyed batch first takes `for key share` on its integration's row, before any alert lock. The
 * foreign key check of a new alert takes that lock anyway, but only after the batch locked its known
 * alerts, while deleting the integration locks the row first and then the alerts (`on delete set
 * null`): the opposite order, a deadlock. Taken first, a delete waits for the batch, or the batch for
 * the delete. An integration deleted or disabled since its key was looked up answers what its key now
 * answers (404), not a foreign key violation (500). (recordAlertsInTransaction's callers need none of
 * this: heartbeats lock the row themselves, and a sender's resolve or text change inserts no alert.)
 */
async function requireIntakeIntegration(tx: TransactionSql, integrationId: string): Promise<void> {
  const state = await integrations.lockIntegrationForIntake(tx, integrationId);
  if (state !== 'enabled') throw unknownIntakeKey();
}

/**
 * `recordAlerts` inside the caller's transaction, for a use case whose own write must commit or roll
 * back with the alerts (a heartbeat's deadline claim). No retry here: the caller owns the transaction.
 * The caller announces `opened` (`announceIncident`) after its commit, never before.
 */
export async function recordAlertsInTransaction(
  tx: TransactionSql,
  ctx: ServiceContext,
  source: IntakeSource,
  sent: readonly AlertInput[],
  at: Date,
): Promise<{ result: IntakeResult; opened: incidents.IncidentRow[] }> {
  return recordInTransaction(tx, ctx, source, withIntegrationLabels(sent, source.labels), at);
}

/** The integration's labels on each alert, winning over the sender's of the same name. */
function withIntegrationLabels(
  inputs: readonly AlertInput[],
  labels: Readonly<Record<string, string>>,
): readonly AlertInput[] {
  if (Object.keys(labels).length === 0) return inputs;
  return inputs.map((input) => ({ ...input, labels: { ...input.labels, ...labels } }));
}

async function recordInTransaction(
  tx: TransactionSql,
  ctx: ServiceContext,
  source: IntakeSource,
  inputs: readonly AlertInput[],
  at: Date,
): Promise<{ result: IntakeResult; opened: incidents.IncidentRow[] }> {
  const outcomes = await recordOutcomes(tx, ctx, source, inputs, at);
  return { result: resultOf(outcomes), opened: openedBy(outcomes) };
}

/** What recording did to one alert of a batch, in the batch's order. */
export interface AlertOutcome {
  kind: StoredKind;
  suppressed: boolean;
  /** The incident its routing opened, announced after the commit. */
  opened: incidents.IncidentRow | null;
  alert: IntakeResult['alerts'][number];
}

/** The webhook answer for a batch's alerts (or a part of them: a request recorded in company). */
function resultOf(outcomes: readonly AlertOutcome[]): IntakeResult {
  const result = emptyResult(outcomes.length);
  for (const outcome of outcomes) {
    if (outcome.kind === 'created') result.created += 1;
    else if (outcome.kind === 'resolved') result.resolved += 1;
    else result.updated += 1;
    if (outcome.suppressed) result.suppressed += 1;
    if (outcome.opened) result.incidents_created += 1;
    result.alerts.push(outcome.alert);
  }
  return result;
}

function openedBy(outcomes: readonly AlertOutcome[]): incidents.IncidentRow[] {
  return outcomes.flatMap((outcome) => (outcome.opened ? [outcome.opened] : []));
}

/** Stores and routes the batch, one outcome per alert in the batch's order. */
async function recordOutcomes(
  tx: TransactionSql,
  ctx: ServiceContext,
  source: IntakeSource,
  inputs: readonly AlertInput[],
  at: Date,
): Promise<AlertOutcome[]> {
  const rules = (await routingRules.listRoutingRules(tx, { enabledOnly: true })).sort(byEvaluationOrder);
  const windows = await maintenanceWindows.listActiveWindows(tx, at);
  const scope = { integration: source.scope, integrationId: source.integrationId };
  const preLink = (input: AlertInput) =>
    preLinkFor({ ...input, integration_id: source.integrationId }, rules, windows);
  const stored = await storeBatch(tx, scope, inputs, at, preLink);
  const openedTogether = await openPlainIncidentsTogether(
    tx,
    ctx,
    stored,
    rules,
    source.escalationPolicyId,
    at,
  );
  const outcomes: AlertOutcome[] = [];

  for (const { kind, alert: storedAlert, incidentFlag, preLinked } of stored) {
    let alert = storedAlert;
    let suppressed = false;
    let opened: incidents.IncidentRow | null = null;

    if (incidentFlag === 'recount' && alert.incident_id)
      await flagIfAllAlertsResolved(tx, alert.incident_id, at);
    const needsRouting = alert.status === 'firing' && (kind === 'created' || kind === 'refired');
    const together = openedTogether.get(alert.id);
    if (together) {
      opened = together;
      alert = { ...alert, incident_id: together.id };
    } else if (needsRouting) {
      const linkedOpen = kind === 'refired' ? await openIncidentOf(tx, alert) : undefined;
      const window = linkedOpen ? undefined : holdingWindow(windows, alert);
      if (linkedOpen) {
        // The problem came back while its incident is still open: same incident, flag cleared.
        await linkAlert(tx, alert, linkedOpen.id, {
          routingRuleId: alert.routing_rule_id,
          refired: true,
          at,
        });
        if (incidentFlag === 'clear') await incidents.setAllAlertsResolved(tx, linkedOpen.id, false, at);
      } else if (window) {
        // Maintenance: stored and held back (no incident, nobody paged) until the window ends, when
        // the worker routes what still fires (docs/api.md#maintenance-windows).
        await alerts.holdForMaintenance(tx, alert.id, window.id);
        suppressed = true;
        alert = { ...alert, incident_id: null };
      } else {
        const outcome = await routeAlert(tx, ctx, alert, rules, at, source.escalationPolicyId, preLinked);
        if (outcome.kind === 'suppressed') suppressed = true;
        if (outcome.kind === 'opened') opened = outcome.incident;
        alert = { ...alert, incident_id: incidentOf(outcome) };
      }
    }
    outcomes.push({
      kind,
      suppressed,
      opened,
      alert: {
        id: alert.id,
        external_id: alert.external_id,
        status: alert.status,
        incident_id: alert.incident_id,
      },
    });
  }
  return outcomes;
}

export type StoredKind = 'created' | 'updated' | 'resolved' | 'refired';
/**
 * What storing did to each alert, and what its incident's all-resolved flag needs (see planAlertUpdate).
 * `preLinked`: a new alert inserted already linked to the incident it is about to open (`preLinkFor`).
 */
type Stored = {
  kind: StoredKind;
  alert: alerts.AlertRow;
  incidentFlag: AlertUpdate['incidentFlag'];
  preLinked?: alertBatches.AlertPreLink | null;
};

/**
 * Stores the batch set-wise: lock the known alerts (sorted, one query), insert the new ones (one
 * query), update the known ones (one query). A batch that names the same alert twice is applied one
 * alert at a time instead, so each delivery sees the one before it.
 */
async function storeBatch(
  tx: TransactionSql,
  scope: alerts.AlertScope,
  inputs: readonly AlertInput[],
  at: Date,
  preLink: (input: AlertInput) => alertBatches.AlertPreLink | null,
): Promise<Stored[]> {
  const { integration } = scope;
  const keys = inputs.map(alerts.dedupKeyOf);
  const present = keys.filter((key): key is string => key !== null);
  const unchanged = await unchangedDeliveries(tx, integration, inputs, keys, at);
  if (unchanged) return unchanged;
  const known = await alertBatches.lockAlertsByKeys(tx, integration, [...new Set(present)].sort());
  if (new Set(present).size !== present.length) {
    const stored: Stored[] = [];
    for (const input of inputs) stored.push(await storeOne(tx, scope, input, at));
    return stored;
  }
  // Inserted in key order: two batches inserting the same new alerts then wait on each other instead
  // of deadlocking (the insert's unique-index waits follow the order rows are written in).
  const fresh = inputs
    .filter((_, i) => keys[i] === null || !known.has(keys[i]!))
    .sort((a, b) => (alerts.dedupKeyOf(a) ?? '').localeCompare(alerts.dedupKeyOf(b) ?? ''));
  const preLinks = fresh.map(preLink);
  const inserted = await alertBatches.insertAlerts(tx, scope, fresh, at, preLinks);
  const created = new Map(fresh.map((input, i) => [input, inserted[i]]));
  const preLinked = new Map(fresh.map((input, i) => [input, preLinks[i]]));
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
      ? {
          kind: 'created' as const,
          alert: row,
          incidentFlag: 'keep' as const,
          preLinked: preLinked.get(input),
        }
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
  integration: string,
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
  scope: alerts.AlertScope,
  input: AlertInput,
  at: Date,
): Promise<Stored> {
  const key = alerts.dedupKeyOf(input);
  let existing = key ? await alerts.lockAlertByKey(tx, scope.integration, key) : undefined;
  if (!existing) {
    const inserted = await alerts.insertAlert(tx, scope, input, at);
    if (inserted) return { kind: 'created', alert: inserted, incidentFlag: 'keep' };
    existing = await alerts.lockAlertByKey(tx, scope.integration, key!); // a concurrent batch inserted it first
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
