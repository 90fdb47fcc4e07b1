import { chat, type Queryable } from '@firebreak/db';
import type { ChatPlatformName } from '@firebreak/schema';
import type { ServiceContext } from '../context';

/** An incident as its chat channel shows it: the row, the commander's chat identity, the alert count. */
export type ChatIncident = chat.ChatIncident;
/** A timeline entry with what a chat message about it needs: the actor's and the commander's chat ids. */
export type ChatEntry = chat.ChatEntry;

/**
 * One chat job's hold on its incident: the incident's chat lock, and the connection that holds it.
 * Every chat-channel verb takes the session, so its reads and writes go through that connection and
 * are recorded the moment they happen (see `withChatSession`).
 */
interface ChatLockHold {
  ctx: ServiceContext;
  incidentId: string;
  /** The lock's connection; only the chat-channel verbs use it. */
  sql: Queryable;
}

/**
 * The hold, working on the incident's channel on one chat platform: what the verbs read and record
 * (the channel, its posts, pages) is that platform's. One lock covers every platform of the incident.
 */
export interface ChatSession extends ChatLockHold {
  platform: ChatPlatformName;
}

/**
 * Runs `work` holding the incident's chat lock, so jobs of one incident run one at a time (posts stay
 * in order, the channel is paced exactly), with a session for each of `platforms`. Undefined at once
 * when another job holds it: the caller re-schedules rather than wait, as a waiting job would hold a
 * pooled connection.
 */
export async function withChatSession<T>(
  ctx: ServiceContext,
  incidentId: string,
  work: (forPlatform: (platform: ChatPlatformName) => ChatSession) => Promise<T>,
): Promise<{ value: T } | undefined> {
  return chat.withIncidentChatLock(ctx.sql, incidentId, (sql) =>
    work((platform) => ({ ctx, incidentId, sql, platform })),
  );
}
