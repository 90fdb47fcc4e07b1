import type { SenderAlertRef } from '@firebreak/domain';
import type { AlertInput } from '@firebreak/schema';
import type { ServiceContext } from '../context';
import type { KeyedIntegration } from '../integrations/intake';
import { recordAlertsInTransaction } from './record-alerts';
import { findSenderAlert, storedAlertInput } from './sender-alert';

/**
 * A sender's resolve (PagerDuty `resolve`, Opsgenie `close`) of an alert it recorded before: the alert
 * becomes resolved exactly as if the sender had re-sent it resolved — same content, the incident's
 * all-resolved flag recounted — through the same code in one transaction. An alert it never recorded,
 * or one already resolved, changes nothing (PagerDuty accepts such a resolve too); `found` says which.
 */
export async function resolveSenderAlert(
  ctx: ServiceContext,
  integration: KeyedIntegration,
  ref: SenderAlertRef,
): Promise<{ found: boolean; alertId: string | null }> {
  const at = ctx.now();
  return ctx.sql.begin(async (tx) => {
    const alert = await findSenderAlert(tx, integration, ref, { lock: true });
    if (!alert?.dedup_key) return { found: false, alertId: null };
    if (alert.status === 'firing') {
      // A resolve opens no incident, so there is nothing to announce after the commit.
      const resolved: AlertInput = { ...storedAlertInput(alert), status: 'resolved', endedAt: at };
      await recordAlertsInTransaction(tx, ctx, integration.source, [resolved], at);
      ctx.logger.info(
        { alert_id: alert.id, integration: integration.type, integration_id: integration.id },
        'alert resolved by its sender',
      );
    }
    return { found: true, alertId: alert.id };
  });
}
