import { incidents, outbox, timeline } from '@firebreak/db';
import type { Actor, AddNoteInput, TimelineEntry } from '@firebreak/schema';
import type { ServiceContext } from '../context';
import { queueWebhookEvent } from '../outgoing-webhooks/queue-event';
import { chatJobs } from './chat-jobs';
import { presentTimelineEntry } from './present';
import { incidentNotFound } from './ref';
import { sealed } from './update';

/**
 * A note on the timeline (`message` entry), posted to the incident's channel. A resolved incident's
 * timeline is sealed (docs/api.md#incidents): notes are refused with 409 `conflict`.
 */
export async function addNote(
  ctx: ServiceContext,
  actor: Actor,
  ref: incidents.IncidentRef,
  input: AddNoteInput,
): Promise<TimelineEntry> {
  const entry = await ctx.sql.begin(async (tx) => {
    const incident = await incidents.lockIncident(tx, ref);
    if (!incident) throw incidentNotFound(ref);
    if (incident.status === 'resolved') throw sealed();
    const at = ctx.now();
    const row = await timeline.insertTimelineEntry(tx, {
      incidentId: incident.id,
      type: 'message',
      actor,
      data: { text: input.text },
      at,
    });
    await outbox.insertOutboxRows(tx, [chatJobs.postEntry(incident.id, row.id)]);
    await queueWebhookEvent(tx, 'incident.note_added', incident.id, at);
    return row;
  });
  return presentTimelineEntry(entry);
}
