import { incidents } from '@firebreak/db';
import type { SenderAlertRef } from '@firebreak/domain';
import { AppError } from '@firebreak/schema';
import type { ServiceContext } from '../context';
import { updateIncident } from '../incidents/update';
import type { KeyedIntegration } from '../integrations/intake';
import { findSenderAlert, senderActor } from './sender-alert';

/**
 * A sender's acknowledge (PagerDuty `acknowledge`, Opsgenie `acknowledge`) of an alert it recorded:
 * the alert's incident is acknowledged if it is still triggered, by the integration (a system actor
 * with its name), through the same status change as a person's. An unknown alert, one without an
 * incident, or an incident already acknowledged or resolved changes nothing: the sender is told its
 * request was accepted, as the original APIs do.
 */
export async function acknowledgeSenderAlert(
  ctx: ServiceContext,
  integration: KeyedIntegration,
  ref: SenderAlertRef,
): Promise<{ found: boolean; acknowledged: boolean }> {
  const alert = await findSenderAlert(ctx.sql, integration, ref);
  if (!alert) return { found: false, acknowledged: false };
  if (!alert.incident_id) return { found: true, acknowledged: false };
  const incident = await incidents.findIncidentView(ctx.sql, { id: alert.incident_id });
  if (incident?.status !== 'triggered') return { found: true, acknowledged: false };
  try {
    await updateIncident(
      ctx,
      await senderActor(ctx, integration),
      { id: incident.id },
      { status: 'acknowledged' },
    );
    return { found: true, acknowledged: true };
  } catch (error) {
    // Resolved by someone between the read and the change: the sender's acknowledge is moot.
    if (error instanceof AppError && error.code === 'invalid_transition')
      return { found: true, acknowledged: false };
    throw error;
  }
}
