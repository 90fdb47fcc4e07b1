import { chat } from '@firebreak/db';
import type { ChatSession } from './session';

/**
 * A timeline entry posted in the channel (`messageTs`), or refused for good (`messageTs` null and
 * the chat service's `error`): either way it is not tried again.
 */
export async function recordEntryPosted(
  session: ChatSession,
  post: { entryId: string; channelId: string; messageTs: string | null; error?: string },
): Promise<void> {
  await chat.recordChatPost(session.sql, {
    ...post,
    platform: session.platform,
    incidentId: session.incidentId,
    at: session.ctx.now(),
  });
}

/**
 * An escalation's direct message sent to one person, by the platform's id for them (or refused for
 * good): nobody is paged twice.
 */
export async function recordDirectMessage(
  session: ChatSession,
  dm: { entryId: string; chatUserId: string; messageTs: string | null; error?: string },
): Promise<void> {
  await chat.recordDirectMessage(session.sql, { ...dm, platform: session.platform, at: session.ctx.now() });
}
