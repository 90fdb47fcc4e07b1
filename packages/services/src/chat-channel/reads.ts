import { chat } from '@firebreak/db';
import type { TimelineEntryType } from '@firebreak/schema';
import type { ChatEntry, ChatIncident, ChatSession } from './session';

/** The session's incident as its channel shows it; undefined when it no longer exists. */
export async function readChatIncident(session: ChatSession): Promise<ChatIncident | undefined> {
  return chat.findChatIncident(session.sql, session.incidentId, session.platform);
}

export async function readChatEntry(session: ChatSession, entryId: string): Promise<ChatEntry | undefined> {
  return chat.findChatEntry(session.sql, entryId);
}

/** Entries of these types the channel has not heard yet, up to `uptoSeq` (all when null), in order. */
export async function listUnpostedChatEntries(
  session: ChatSession,
  types: readonly TimelineEntryType[],
  uptoSeq: string | null,
): Promise<ChatEntry[]> {
  return chat.listUnpostedEntries(session.sql, session.incidentId, session.platform, types, uptoSeq);
}

/** Whether the platform has a `chat_failed` entry for this operation (and code, when given). */
export async function hasChatFailure(
  session: ChatSession,
  failure: { operation: string; code?: string },
): Promise<boolean> {
  return chat.hasChatFailure(session.sql, session.incidentId, { ...failure, platform: session.platform });
}

/** The name the channel was created with (the resolved rename and its topic are derived from it). */
export async function readOriginalChannelName(session: ChatSession): Promise<string | undefined> {
  return chat.originalChannelName(session.sql, session.incidentId, session.platform);
}

/** When the channel last received a post from us (pacing: one per second per channel). */
export async function readLastChatPostAt(session: ChatSession, channelId: string): Promise<Date | undefined> {
  return chat.lastChatPostAt(session.sql, session.platform, channelId);
}

/**
 * Chat users (by the platform's id) already sent the direct message of this escalation entry (or
 * refused for good).
 */
export async function readDirectMessagesSent(session: ChatSession, entryId: string): Promise<Set<string>> {
  return chat.directMessagesSent(session.sql, entryId, session.platform);
}
