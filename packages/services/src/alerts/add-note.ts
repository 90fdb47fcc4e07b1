import type { SenderAlertRef } from '@firebreak/domain';
import { AppError, type TimelineEntry } from '@firebreak/schema';
import type { ServiceContext } from '../context';
import { addNote } from '../incidents/add-note';
import type { KeyedIntegration } from '../integrations/intake';
import { findSenderAlert, senderActor } from './sender-alert';

/**
 * A sender's note on an alert it recorded (Opsgenie's `notes`): a `message` entry on the timeline of
 * the alert's incident, by the integration. Alerts have no notes of their own, so an unknown alert is
 * 404 `not_found` and an alert without an incident 409 `conflict`, as is a resolved incident's sealed
 * timeline (docs/api.md#incidents).
 */
export async function addSenderAlertNote(
  ctx: ServiceContext,
  integration: KeyedIntegration,
  ref: SenderAlertRef,
  text: string,
): Promise<TimelineEntry> {
  const alert = await findSenderAlert(ctx.sql, integration, ref);
  if (!alert) throw new AppError('not_found', 'Alert does not exist.');
  if (!alert.incident_id) {
    throw new AppError('conflict', 'The alert has no incident, so the note has no timeline to go on.');
  }
  return addNote(ctx, await senderActor(ctx, integration), { id: alert.incident_id }, { text });
}
