import { chat, timeline } from '@firebreak/db';
import type { ChatSession } from './session';

/**
 * Records the name about to be asked for, before asking: if the answer is lost (a crash, a timeout),
 * the next try knows a `name_taken` for this name is most likely its own channel.
 */
export async function markChannelCreating(session: ChatSession, name: string): Promise<void> {
  await chat.markChatChannelCreating(session.sql, session.incidentId, session.platform, name);
}

/**
 * The incident's channel exists: stored only if the incident has none yet (a conditional update, so
 * two jobs can never both give it a channel), with a `chat_channel_created` entry. False when the
 * incident already had a channel, and then nothing is written.
 */
export async function recordChannelOpened(
  session: ChatSession,
  channel: { id: string; name: string },
): Promise<boolean> {
  if (!(await chat.claimChatChannel(session.sql, session.incidentId, session.platform, channel))) {
    return false;
  }
  await timeline.insertTimelineEntry(session.sql, {
    incidentId: session.incidentId,
    type: 'chat_channel_created',
    actor: { type: 'system', name: 'chat' },
    data: { channel_id: channel.id, channel_name: channel.name, ...chat.entryPlatformData(session.platform) },
    at: session.ctx.now(),
  });
  return true;
}
