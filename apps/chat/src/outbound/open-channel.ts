import {
  type ChatIncident,
  markChannelCreating,
  readChatIncident,
  recordCardPosted,
  recordChannelOpened,
  recordChannelTopic,
} from '@firebreak/services';
import { cardDigest } from './card';
import { postInChannel, withRejoin } from './channel-calls';
import { incidentChannelName, MAX_NAME_ATTEMPTS } from './channel-name';
import { isRefusal } from './errors';
import { reportRefusal } from './failures';
import { flushChannel } from './flush';
import type { ChatJob } from './job';

/**
 * `chat.open_channel`: create `inc-<number>-<slug>`, set its topic and purpose, post the card, then
 * whatever the incident wrote with it and since. Each step is skipped when already done, so a retried
 * (or duplicate) job continues where the last one stopped, and never makes a second channel: the
 * channel is stored with a conditional update, and a creation whose answer was lost is adopted (below).
 */
export async function openChannel(jc: ChatJob): Promise<void> {
  const incident = await readChatIncident(jc.session);
  if (!incident) return;
  let channelId = incident.chat_channel_id;
  if (!channelId) {
    const channel = await createChannel(jc, incident);
    if (!(await recordChannelOpened(jc.session, channel))) {
      // Cannot happen while jobs of one incident hold its lock; if it does, say which channel is spare.
      jc.ctx.logger.warn(
        { incident_id: incident.id, channel_id: channel.id },
        'chat: incident already has a channel',
      );
      return;
    }
    jc.ctx.logger.info(
      { incident_id: incident.id, channel_id: channel.id, channel_name: channel.name },
      'chat channel created',
    );
    channelId = channel.id;
    Object.assign(incident, { chat_channel_id: channel.id, chat_channel_name: channel.name });
    if (channel.cardTs) await recordCard(jc, incident, channel.id, channel.cardTs);
  }
  if (incident.chat_topic === null) await setUpChannel(jc, incident, channelId);
  if (!incident.chat_card_ts) await postCard(jc, incident, channelId);
  // Even when the card was refused (and reported): the opening queues no job of its own for the entries
  // written with it (the alert's link, the lead), so this is where the channel hears them.
  await flushChannel(jc, null);
}

interface CreatedChannel {
  id: string;
  name: string;
  /** Set when the channel was adopted by posting the card into it. */
  cardTs?: string;
}

async function createChannel(jc: ChatJob, incident: ChatIncident): Promise<CreatedChannel> {
  let taken: unknown;
  for (let attempt = 1; attempt <= MAX_NAME_ATTEMPTS; attempt++) {
    const name = incidentChannelName(incident.number, incident.title, attempt, jc.platform.channelNames);
    const askedBefore = incident.chat_channel_creating === name;
    await markChannelCreating(jc.session, name);
    try {
      return await jc.call('create_channel', (platform) => platform.createChannel(name));
    } catch (error) {
      if (!isRefusal(error, 'name_taken')) throw error;
      if (askedBefore) return adoptLostChannel(jc, incident, name);
      taken = error;
    }
  }
  // Every name was taken: the last refusal stands, with the platform's own code for it.
  throw taken;
}

/**
 * An earlier try asked for this very name and died before recording the answer; `name_taken` now
 * almost certainly means that try made the channel. The platform finds it by name and the card is
 * posted there, and the channel becomes the incident's.
 */
async function adoptLostChannel(jc: ChatJob, incident: ChatIncident, name: string): Promise<CreatedChannel> {
  const card = jc.platform.render.card(incident, jc.publicUrl);
  const posted = await jc.call('post_card', (platform) => platform.adoptChannel(name, card));
  jc.ctx.logger.info(
    { incident_id: incident.id, channel_name: name },
    'chat: adopted a channel whose creation answer was lost',
  );
  return { id: posted.channelId, name, cardTs: posted.messageId };
}

/** Topic (title, severity, lead) and purpose. A refusal is reported; the card still gets posted. */
async function setUpChannel(jc: ChatJob, incident: ChatIncident, channelId: string): Promise<void> {
  const topic = jc.platform.render.topic(incident);
  const purpose = jc.platform.render.purpose(incident, jc.publicUrl);
  try {
    await withRejoin(jc, channelId, 'setup_channel', (platform) => platform.setTopic(channelId, topic));
    await withRejoin(jc, channelId, 'setup_channel', (platform) => platform.setPurpose(channelId, purpose));
  } catch (error) {
    if (!isRefusal(error)) throw error;
    await reportRefusal(jc, error);
  }
  await recordChannelTopic(jc.session, topic);
}

/** The card; it stands for the entries that opened the incident and named its lead. A refusal is reported. */
async function postCard(jc: ChatJob, incident: ChatIncident, channelId: string): Promise<void> {
  const card = jc.platform.render.card(incident, jc.publicUrl);
  try {
    const ts = await postInChannel(jc, channelId, 'post_card', card);
    await recordCard(jc, incident, channelId, ts);
  } catch (error) {
    if (!isRefusal(error)) throw error;
    await reportRefusal(jc, error);
  }
}

async function recordCard(jc: ChatJob, incident: ChatIncident, channelId: string, ts: string) {
  const digest = cardDigest(jc.platform.render.card(incident, jc.publicUrl));
  await recordCardPosted(jc.session, incident, { channelId, ts, digest });
  incident.chat_card_ts = ts;
}
