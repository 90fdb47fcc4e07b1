import { setTimeout as sleep } from 'node:timers/promises';
import { readLastChatPostAt } from '@firebreak/services';
import type { ChatPlatform } from '../platform/chat-platform';
import { ChannelPacingError, ChatCallError, type ChatOperation, isRefusal } from './errors';
import type { ChatMessage } from './format';
import type { ChatJob } from './job';

/**
 * Slack "generally allows posting one message per second per channel" (docs/integrations/slack.md#posting).
 */
const POST_INTERVAL_MS = 1000;
/** Waits up to this long are slept; longer ones re-schedule the job (ChannelPacingError). */
const MAX_PACING_SLEEP_MS = 100;

/**
 * A call in the incident's channel; `not_in_channel` (someone removed the bot) makes the bot join the
 * channel again and repeat the call once. If it cannot join, the original refusal stands, with the
 * join's error beside it.
 */
export async function withRejoin<T>(
  jc: ChatJob,
  channelId: string,
  operation: ChatOperation,
  request: (platform: ChatPlatform) => Promise<T>,
): Promise<T> {
  try {
    return await jc.call(operation, request);
  } catch (error) {
    if (!isRefusal(error, 'not_in_channel')) throw error;
    try {
      await jc.call(operation, (platform) => platform.rejoinChannel(channelId));
    } catch (joinError) {
      if (!isRefusal(joinError)) throw joinError;
      error.detail = { join_error: joinError.code };
      throw error;
    }
    jc.ctx.logger.info(
      { incident_id: jc.incidentId, channel_id: channelId },
      'chat: rejoined incident channel',
    );
    return jc.call(operation, request);
  }
}

/**
 * Posts in the incident's channel at most once a second: waits until a second after the channel's
 * last recorded post. Jobs of one incident run one at a time (the chat lock), so this is exact for
 * the incident's own channel. Returns the message's id.
 */
export async function postInChannel(
  jc: ChatJob,
  channelId: string,
  operation: ChatOperation,
  message: ChatMessage,
  options: { threadId?: string | undefined } = {},
): Promise<string> {
  const last = await readLastChatPostAt(jc.session, channelId);
  const wait = last ? last.getTime() + POST_INTERVAL_MS - jc.ctx.now().getTime() : 0;
  if (wait > MAX_PACING_SLEEP_MS) throw new ChannelPacingError(Math.min(wait, POST_INTERVAL_MS));
  if (wait > 0) await sleep(wait);
  const id = await withRejoin(jc, channelId, operation, (platform) =>
    platform.postMessage(channelId, message, options.threadId ? { threadId: options.threadId } : undefined),
  );
  // The card and timeline entries are recorded by their id (later edits and thread replies need it):
  // an answer without one is taken as an outage and the job tries again.
  if (!id) throw new ChatCallError(operation, { kind: 'transient', code: 'no_ts_in_answer' });
  return id;
}
