import {
  readChatIncident,
  readOriginalChannelName,
  recordChannelName,
  recordChannelTopic,
} from '@firebreak/services';
import { withRejoin } from './channel-calls';
import { MAX_NAME_ATTEMPTS, resolvedChannelName, resolvedLiteral } from './channel-name';
import { isRefusal } from './errors';
import { reportRefusal } from './failures';
import { flushChannel } from './flush';
import type { ChatJob } from './job';

/**
 * `chat.mark_resolved` (docs/integrations/slack.md#rename): after the resolution was posted (posted here
 * first if its own job has not run yet), rename the channel. First the literal `[RESOLVED] #inc-…` itself; a
 * chat service that refuses its characters (Slack always does: `invalid_name_specials`) gets
 * `resolved-inc-<number>-<slug>` and a topic that starts with the literal. Renaming twice is avoided by
 * comparing with the name the channel was created with.
 */
export async function markResolved(jc: ChatJob): Promise<void> {
  const flushed = await flushChannel(jc, null);
  const incident = flushed ?? (await readChatIncident(jc.session));
  const channelId = incident?.chat_channel_id;
  if (!incident || !channelId || incident.status !== 'resolved') return;
  const original = (await readOriginalChannelName(jc.session)) ?? incident.chat_channel_name ?? '';
  const literal = resolvedLiteral(original, jc.platform.channelNames);
  if (incident.chat_channel_name === literal) return;
  if (incident.chat_channel_name === original) {
    const renamed = await rename(jc, channelId, original);
    if (renamed) await recordChannelName(jc.session, renamed);
    if (renamed === literal) return;
  }
  const topic = jc.platform.render.resolvedTopic(literal, incident);
  if (incident.chat_topic === topic) return;
  await withRejoin(jc, channelId, 'update_topic', (platform) => platform.setTopic(channelId, topic));
  await recordChannelTopic(jc.session, topic);
}

/**
 * The literal, else the closest valid name (with `-2`, `-3`… when taken). Undefined when the chat
 * service does not let the bot rename (`not_permitted`: Slack's `not_authorized`, `restricted_action`): reported, and the topic
 * still says the incident is resolved.
 */
async function rename(jc: ChatJob, channelId: string, original: string): Promise<string | undefined> {
  const naming = jc.platform.channelNames;
  const names = [resolvedLiteral(original, naming)];
  for (let n = 1; n <= MAX_NAME_ATTEMPTS; n++) names.push(resolvedChannelName(original, n, naming));
  for (const [index, name] of names.entries()) {
    try {
      await withRejoin(jc, channelId, 'rename_channel', (platform) =>
        platform.renameChannel(channelId, name),
      );
      return name;
    } catch (error) {
      if (isRefusal(error, 'not_permitted')) {
        await reportRefusal(jc, error);
        return undefined;
      }
      const tryNext = isRefusal(error, 'name_taken') || (index === 0 && isRefusal(error, 'invalid_name'));
      if (!tryNext || index === names.length - 1) throw error;
      if (index === 0) {
        jc.ctx.logger.info(
          { incident_id: jc.incidentId, code: error.code },
          'chat: the literal [RESOLVED] name was refused; renaming to the closest valid name',
        );
      }
    }
  }
  return undefined;
}
