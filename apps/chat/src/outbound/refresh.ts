import { type ChatIncident, recordCardDigest, recordChannelTopic } from '@firebreak/services';
import { cardDigest } from './card';
import { withRejoin } from './channel-calls';
import { isRefusal } from './errors';
import { reportRefusal } from './failures';
import type { ChatJob } from './job';

/**
 * Brings the card (edited in place) and the topic up to date with the incident, if what they would
 * show changed since they were last sent. Runs after the posts, so the channel reads "acknowledged by
 * Bob" just as the card turns to Acknowledged. A refusal is reported and not tried again until the
 * incident changes once more.
 */
export async function refreshChannel(jc: ChatJob, incident: ChatIncident): Promise<void> {
  const channelId = incident.chat_channel_id;
  if (!channelId) return;
  await refreshCard(jc, incident, channelId);
  await refreshTopic(jc, incident, channelId);
}

async function refreshCard(jc: ChatJob, incident: ChatIncident, channelId: string): Promise<void> {
  const ts = incident.chat_card_ts;
  if (!ts) return;
  const card = jc.platform.render.card(incident, jc.publicUrl);
  const digest = cardDigest(card);
  if (digest === incident.chat_card_digest) return;
  try {
    await withRejoin(jc, channelId, 'update_card', (platform) => platform.updateCard(channelId, ts, card));
  } catch (error) {
    if (!isRefusal(error)) throw error;
    await reportRefusal(jc, error);
  }
  await recordCardDigest(jc.session, digest);
}

async function refreshTopic(jc: ChatJob, incident: ChatIncident, channelId: string): Promise<void> {
  // Null: the channel is not set up yet (opening sets it). Resolved: the resolved topic is the rename's.
  if (incident.chat_topic === null || incident.status === 'resolved') return;
  const topic = jc.platform.render.topic(incident);
  if (topic === incident.chat_topic) return;
  try {
    await withRejoin(jc, channelId, 'update_topic', (platform) => platform.setTopic(channelId, topic));
  } catch (error) {
    if (!isRefusal(error)) throw error;
    await reportRefusal(jc, error);
  }
  await recordChannelTopic(jc.session, topic);
}
