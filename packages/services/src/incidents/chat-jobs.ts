import type { outbox } from '@firebreak/db';

/**
 * The outbox rows through which an incident's chat channel hears about it. The ordering key is the
 * incident, so the channel hears things in the order they happened.
 */
export const chatJobs = {
  openChannel: (incidentId: string): outbox.OutboxJob => ({
    name: 'chat.open_channel',
    payload: { incident_id: incidentId },
    orderingKey: incidentId,
  }),
  postEntry: (incidentId: string, entryId: string): outbox.OutboxJob => ({
    name: 'chat.post_timeline_entry',
    payload: { incident_id: incidentId, entry_id: entryId },
    orderingKey: incidentId,
  }),
  markResolved: (incidentId: string): outbox.OutboxJob => ({
    name: 'chat.mark_resolved',
    payload: { incident_id: incidentId },
    orderingKey: incidentId,
  }),
  escalationNotice: (incidentId: string, entryId: string): outbox.OutboxJob => ({
    name: 'chat.escalation_notice',
    payload: { incident_id: incidentId, entry_id: entryId },
    orderingKey: incidentId,
  }),
};
