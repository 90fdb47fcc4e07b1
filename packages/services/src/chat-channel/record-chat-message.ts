import { chat, chatMessages, incidents, users } from '@firebreak/db';
import type { Actor } from '@firebreak/schema';
import type { ServiceContext } from '../context';
import { readFollowupSettings } from '../settings/followup-settings';

/** A person's message in a chat channel, as an Events API `message` event carries it. */
export interface ChannelMessage {
  channelId: string;
  chatUserId: string;
  text: string;
  ts: string;
}

export type RecordChatMessageOutcome =
  | 'recorded'
  | 'duplicate'
  | 'sync_off'
  | 'not_incident_channel'
  | 'incident_resolved';

/** Longest message text kept on the timeline (chat allows 40 000 characters; the timeline is for reading). */
const MAX_TEXT_LENGTH = 4000;

/**
 * With `chat_timeline_sync` on, a message in an incident channel becomes a `chat_message` entry with the
 * person as actor: the Firebreak user with that chat id, else the chat id itself. Nobody is looked up
 * or created for a message (commands and buttons do that): reading along must have no side effects.
 * The entry is not posted back to the channel. One entry per message `ts`, however often it arrives; a
 * resolved incident's sealed timeline takes none.
 */
export async function recordChatMessage(
  ctx: ServiceContext,
  message: ChannelMessage,
): Promise<RecordChatMessageOutcome> {
  if (!(await readFollowupSettings(ctx)).chat_timeline_sync) return 'sync_off';
  const incident = await chat.findIncidentByChannel(ctx.sql, 'slack', message.channelId);
  if (!incident) return 'not_incident_channel';
  const user = await users.findUserByChatId(ctx.sql, 'slack', message.chatUserId);
  const actor: Actor = user
    ? { type: 'chat', id: user.id, name: user.name }
    : { type: 'chat', name: message.chatUserId };
  const text =
    message.text.length > MAX_TEXT_LENGTH ? `${message.text.slice(0, MAX_TEXT_LENGTH)}…` : message.text;
  return ctx.sql.begin(async (tx): Promise<RecordChatMessageOutcome> => {
    // A resolved incident's timeline is sealed (docs/api.md#incidents): talk after it stays in chat.
    // Read `for share`, so a resolution racing this message waits for it (the entry lands before the
    // resolution) or is seen here; never an entry after the seal.
    const locked = await incidents.lockIncidentStatus(tx, incident.id);
    if (!locked) return 'not_incident_channel';
    if (locked.status === 'resolved') return 'incident_resolved';
    const stored = await chatMessages.insertChatMessageEntry(tx, {
      incidentId: incident.id,
      actor,
      data: { text, chat_user_id: message.chatUserId, ts: message.ts, channel_id: message.channelId },
      at: ctx.now(),
    });
    return stored ? 'recorded' : 'duplicate';
  });
}
