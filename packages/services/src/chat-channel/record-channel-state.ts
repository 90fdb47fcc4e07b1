import { chat } from '@firebreak/db';
import type { ChatIncident, ChatSession } from './session';

/** What the channel is called now (after the resolved rename). */
export async function recordChannelName(session: ChatSession, name: string): Promise<void> {
  await chat.setChatChannelName(session.sql, session.incidentId, session.platform, name);
}

/** The topic last sent, so the channel is only told again when the incident changes it. */
export async function recordChannelTopic(session: ChatSession, topic: string): Promise<void> {
  await chat.setChatTopic(session.sql, session.incidentId, session.platform, topic);
}

/** The card as last sent (its digest), so it is only edited again when the incident changes it. */
export async function recordCardDigest(session: ChatSession, digest: string): Promise<void> {
  await chat.setChatCard(session.sql, session.incidentId, session.platform, { digest });
}

/**
 * The card was posted: its `ts` (to edit it later) and digest, and the entries written when the
 * incident was opened recorded as posted with it (the card stands for them).
 */
export async function recordCardPosted(
  session: ChatSession,
  incident: ChatIncident,
  card: { channelId: string; ts: string; digest: string },
): Promise<void> {
  await chat.setChatCard(session.sql, session.incidentId, session.platform, {
    ts: card.ts,
    digest: card.digest,
  });
  await chat.recordCardPost(session.sql, incident, {
    platform: session.platform,
    incidentId: session.incidentId,
    channelId: card.channelId,
    messageTs: card.ts,
    at: session.ctx.now(),
  });
}
