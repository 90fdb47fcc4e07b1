import type { SenderAlertRef } from '@firebreak/domain';
import type { ServiceContext } from '../context';
import type { KeyedIntegration } from '../integrations/intake';
import { recordAlertsInTransaction } from './record-alerts';
import { findSenderAlert, storedAlertInput } from './sender-alert';

/**
 * A sender's new title or description for an alert it recorded (Opsgenie's `PUT …/message` and
 * `…/description`, which Alertmanager sends with `update_alerts`): recorded as a delivery of the same
 * alert with that one change, in one transaction. An alert it never recorded changes nothing.
 */
export async function updateSenderAlertText(
  ctx: ServiceContext,
  integration: KeyedIntegration,
  ref: SenderAlertRef,
  change: { title: string } | { description: string | null },
): Promise<{ found: boolean }> {
  const at = ctx.now();
  return ctx.sql.begin(async (tx) => {
    const alert = await findSenderAlert(tx, integration, ref, { lock: true });
    if (!alert?.dedup_key) return { found: false };
    await recordAlertsInTransaction(
      tx,
      ctx,
      integration.source,
      [{ ...storedAlertInput(alert), ...change }],
      at,
    );
    return { found: true };
  });
}
