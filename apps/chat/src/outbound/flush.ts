import {
  type ChatIncident,
  hasChatFailure,
  listUnpostedChatEntries,
  readChatEntry,
  readChatIncident,
  recordEntryPosted,
} from '@firebreak/services';
import { postInChannel } from './channel-calls';
import { ChannelPendingError, isRefusal } from './errors';
import { reportRefusal } from './failures';
import { inviteOwedPeople } from './invites';
import type { ChatJob } from './job';
import { CHANNEL_ENTRY_TYPES } from './messages';
import { refreshChannel } from './refresh';

// An incident opens its channel within seconds, or within the opening job's ~19 minutes of retries
// while the chat service is down (whose last try records a `chat_failed`). An older incident with
// neither a channel nor a failure was opened while chat was off: no channel is coming (and the
// recovery pass, recovery.ts, opens none).
export const OPENING_WINDOW_MS = 30 * 60 * 1000;

/**
 * The channel to post in. Undefined when there will be none (opening failed for good, or chat was off
 * when the incident was opened); `ChannelPendingError` (retried with backoff) while the channel or its
 * card is still to come, so nothing is posted above the card.
 */
async function channelToPostIn(jc: ChatJob, incident: ChatIncident): Promise<string | undefined> {
  if (incident.chat_channel_id) {
    if (incident.chat_card_ts) return incident.chat_channel_id;
    if (await hasChatFailure(jc.session, { operation: 'post_card' })) {
      return incident.chat_channel_id;
    }
  } else {
    if (await hasChatFailure(jc.session, { operation: 'create_channel' })) return undefined;
    if (jc.ctx.now().getTime() - incident.created_at.getTime() > OPENING_WINDOW_MS) return undefined;
  }
  throw new ChannelPendingError(incident.id);
}

/**
 * Posts every entry of the incident the channel has not heard yet, up to `uptoSeq` (all when null), in
 * `seq` order, recording each as soon as the chat service took it: whichever job runs first posts in
 * the right order, and a retried job never posts twice. A refused post is recorded as refused, so it
 * is tried exactly once, and reported; the others are still tried (a refusal may concern one message
 * only). The card and topic then follow the incident, unless the channel refused something, and the
 * people the channel owes an invite are invited (invites.ts). Returns
 * the incident as it was read last, or undefined when there is no channel to post in or it refused.
 */
export async function flushChannel(jc: ChatJob, uptoSeq: string | null): Promise<ChatIncident | undefined> {
  const incident = await readChatIncident(jc.session);
  if (!incident) return undefined;
  const channelId = await channelToPostIn(jc, incident);
  if (!channelId) return undefined;
  const entries = await listUnpostedChatEntries(jc.session, CHANNEL_ENTRY_TYPES, uptoSeq);
  const threadId = jc.platform.threadsUnderCard ? (incident.chat_card_ts ?? undefined) : undefined;
  let refused = false;
  for (const entry of entries) {
    const post = { entryId: entry.id, channelId };
    try {
      const message = jc.platform.render.entry(entry);
      const ts = await postInChannel(jc, channelId, 'post_message', message, { threadId });
      await recordEntryPosted(jc.session, { ...post, messageTs: ts });
    } catch (error) {
      if (!isRefusal(error)) throw error;
      await recordEntryPosted(jc.session, { ...post, messageTs: null, error: error.code });
      await reportRefusal(jc, error, { entry_id: entry.id });
      refused = true;
    }
  }
  if (refused) return undefined;
  const current = (await readChatIncident(jc.session)) ?? incident;
  await refreshChannel(jc, current);
  // After the card and the posts: whoever joins sees the channel as it stands.
  if (current.status !== 'resolved' && jc.platform.invitesPeople) await inviteOwedPeople(jc, channelId);
  return current;
}

/** `chat.post_timeline_entry`: the entry, and every earlier one the channel has not heard. */
export async function postTimelineEntry(jc: ChatJob, entryId: string): Promise<void> {
  const entry = await readChatEntry(jc.session, entryId);
  if (!entry || entry.incident_id !== jc.incidentId) return;
  await flushChannel(jc, entry.seq);
}
