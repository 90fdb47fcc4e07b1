import { chatInvites } from '@firebreak/db';
import type { ChatSession } from './session';

/** Chat users the incident's channel owes an invite: its commander and the people paged, not yet asked. */
export async function listOwedInvites(session: ChatSession): Promise<string[]> {
  return chatInvites.listOwedInvitees(session.sql, session.incidentId);
}

/**
 * One invite asked for: `error` null when the person is in the channel (already there counts), else
 * the chat service's refusal. Either way it is recorded, so each person is asked once per incident.
 */
export async function recordInvite(
  session: ChatSession,
  invite: { slackUserId: string; channelId: string; error: string | null },
): Promise<void> {
  await chatInvites.recordInvite(session.sql, {
    ...invite,
    incidentId: session.incidentId,
    at: session.ctx.now(),
  });
}
