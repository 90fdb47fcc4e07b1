import type { ChatUpdateArguments, WebClient } from '@slack/web-api';
import { SLACK_CHANNEL_NAMING } from '../../outbound/channel-name';
import { IncompleteAnswerError } from '../../outbound/errors';
import type { ChatMessage } from '../../outbound/format';
import type { ChatPlatform } from '../chat-platform';
import { classifySlackError } from './errors';
import { slackRenderer } from './renderer';

/** Block Kit blocks as the Web API types them; ours are built as plain objects (card.ts). */
type Blocks = NonNullable<Extract<ChatUpdateArguments, { blocks: unknown }>['blocks']>;

const blocksOf = (message: ChatMessage) => (message.blocks ? { blocks: message.blocks as Blocks } : {});

/** Slack's Web API client standing for the Slack platform (how tests and the first deployments build a job). */
export interface SlackClientDeps extends SlackPlatformOptions {
  client: WebClient;
}

interface SlackPlatformOptions {
  /**
   * Direct-message channel ids by Slack user id, kept for the worker's life and shared by its jobs
   * (pages, shift notices): a page re-scheduled by a rate limit does not spend `conversations.open`'s
   * allowance again. An entry whose channel refuses a post is dropped (sendDirectMessage).
   */
  directChannels?: Map<string, string>;
}

/**
 * Slack behind the platform boundary, over the Web API client (the worker's honours the shared
 * rate-limit pauses: rate-limit-pauses.ts). Slack's channels are conversations; a message's id is its `ts`.
 */
export function slackPlatform(client: WebClient, options: SlackPlatformOptions = {}): ChatPlatform {
  const directChannels = options.directChannels;
  const post = async (channel: string, message: ChatMessage, threadId?: string) => {
    const result = await client.chat.postMessage({
      channel,
      text: message.text,
      ...blocksOf(message),
      ...(threadId ? { thread_ts: threadId } : {}),
      unfurl_links: false,
    });
    return result;
  };
  const postDirect = async (channel: string, message: ChatMessage) => {
    const posted = await client.chat.postMessage({ channel, text: message.text, unfurl_links: false });
    return posted.ts ?? null;
  };
  return {
    name: 'slack',
    render: slackRenderer,
    channelNames: SLACK_CHANNEL_NAMING,
    threadsUnderCard: false,
    invitesPeople: true,
    chatIdOf: (person) => person.slack_user_id ?? null,
    async createChannel(name) {
      const result = await client.conversations.create({ name });
      const id = result.channel?.id;
      if (!id) throw new IncompleteAnswerError('no_channel_in_answer');
      return { id, name: result.channel?.name ?? name };
    },
    // With the scopes Firebreak asks for, Slack cannot look a channel up by name, but
    // `chat.postMessage` takes a name and answers the channel's id.
    async adoptChannel(name, card) {
      const result = await post(name, card);
      if (!result.channel || !result.ts) throw new IncompleteAnswerError('no_ts_in_answer');
      return { channelId: result.channel, messageId: result.ts };
    },
    async setTopic(channelId, topic) {
      await client.conversations.setTopic({ channel: channelId, topic });
    },
    async setPurpose(channelId, purpose) {
      await client.conversations.setPurpose({ channel: channelId, purpose });
    },
    async postMessage(channelId, message, options) {
      const result = await post(channelId, message, options?.threadId);
      return result.ts ?? null;
    },
    async updateCard(channelId, messageId, card) {
      await client.chat.update({ channel: channelId, ts: messageId, text: card.text, ...blocksOf(card) });
    },
    async renameChannel(channelId, name) {
      await client.conversations.rename({ channel: channelId, name });
    },
    async rejoinChannel(channelId) {
      await client.conversations.join({ channel: channelId });
    },
    // One person per call: Slack refuses a whole list for one bad id.
    async invite(channelId, userId) {
      await client.conversations.invite({ channel: channelId, users: userId });
    },
    async sendDirectMessage(userId, message) {
      const cached = directChannels?.get(userId);
      if (cached) {
        try {
          return await postDirect(cached, message);
        } catch (error) {
          // The cache outlives what Slack says of the channel (`channel_not_found`, `is_archived`…):
          // a refused post drops the entry and asks Slack for the channel once more. Rate limits and
          // outages keep it: the channel is fine, the job comes back.
          if (classifySlackError(error)?.kind !== 'refused') throw error;
          if (directChannels?.get(userId) === cached) directChannels.delete(userId);
        }
      }
      const opened = await client.conversations.open({ users: userId });
      const channel = opened.channel?.id ?? userId;
      directChannels?.set(userId, channel);
      return postDirect(channel, message);
    },
    classifyError: classifySlackError,
  };
}
