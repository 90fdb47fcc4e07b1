import { outbox, type Queryable, storms, timeline } from '@firebreak/db';
import type { StormCalm } from '@firebreak/domain';
import { intakeActor } from '../alerts/link';
import { chatJobs } from '../incidents/chat-jobs';

/**
 * Ends a storm that calmed (its incident resolved, or no alert joined it for `storm_calm_minutes`):
 * `storm_calmed_at` is the moment it calmed, and a `storm_calmed` entry records when it was noticed
 * (docs/api.md#storm-mode).
 */
export async function calmStorm(tx: Queryable, calm: StormCalm, at: Date): Promise<void> {
  if (!(await storms.markStormCalmed(tx, calm.storm.id, calm.calmedAt))) return;
  const entry = await timeline.insertTimelineEntry(tx, {
    incidentId: calm.storm.id,
    type: 'storm_calmed',
    actor: intakeActor,
    data: {
      calmed_at: calm.calmedAt.toISOString(),
      reason: calm.reason,
      absorbed_alerts: calm.storm.absorbedAlerts,
    },
    at,
  });
  await outbox.insertOutboxRows(tx, [chatJobs.postEntry(calm.storm.id, entry.id)]);
}
