import { alerts, integrations, type Queryable } from '@firebreak/db';
import type { SenderAlertRef } from '@firebreak/domain';
import type { Actor, AlertInput } from '@firebreak/schema';
import type { ServiceContext } from '../context';
import type { KeyedIntegration } from '../integrations/intake';

/**
 * An alert an alert API's sender names (PagerDuty's dedup_key, Opsgenie's alias or id), among the
 * alerts of the sender's own integration only: a key can never act on another integration's alerts.
 */
export function findSenderAlert(
  sql: Queryable,
  integration: KeyedIntegration,
  ref: SenderAlertRef,
  options: { lock: boolean } = { lock: false },
): Promise<alerts.AlertRow | undefined> {
  return alerts.findAlertInScope(
    sql,
    integration.source.scope,
    'alertId' in ref ? { id: ref.alertId } : { dedupKey: ref.externalId },
    options,
  );
}

/**
 * Who the timeline names when a sender acknowledges or notes: the integration itself, as a system
 * actor with its name (its id too, so the entry still says which one after a rename).
 */
export async function senderActor(ctx: ServiceContext, integration: KeyedIntegration): Promise<Actor> {
  const row = await integrations.findIntegration(ctx.sql, integration.id);
  return { type: 'system', id: integration.id, name: row?.name ?? integration.type };
}

/**
 * A stored alert as its sender would re-send it unchanged: same identity and content. A sender's
 * resolve or text update is that, with one thing changed, recorded through the same code as a delivery.
 */
export function storedAlertInput(alert: alerts.AlertRow): AlertInput {
  return {
    title: alert.title,
    description: alert.description,
    severity: alert.severity,
    status: alert.status,
    externalId: alert.external_id,
    fingerprint: alert.fingerprint,
    source: alert.source,
    labels: alert.labels,
    annotations: alert.annotations,
    startedAt: alert.started_at,
    endedAt: alert.ended_at,
  };
}
