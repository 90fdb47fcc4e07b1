import type { TeamsConfig } from '@firebreak/config';
import { IncompleteAnswerError } from '../../outbound/errors';
import type { ChatMessage } from '../../outbound/format';
import type { ChatPlatform } from '../chat-platform';
import { classifyTeamsError } from './errors';
import { MicrosoftApi, type PauseGate } from './microsoft-api';
import { ADAPTIVE_CARD, teamsRenderer } from './renderer';

/**
 * Teams channel names take 50 characters (docs/teams.md#channel-names); incident channels get 39, so
 * that `[RESOLVED] ` and the name always fit on resolution. Teams allows the brackets and the space.
 */
export const TEAMS_CHANNEL_NAMING = { maxLength: 39, resolvedPrefix: '[RESOLVED] ', resolvedMaxLength: 50 };

interface TeamsPlatformOptions {
  gate?: PauseGate;
  /** 1:1 conversation ids by the person's Entra object id, kept for the worker's life (pages). */
  directConversations?: Map<string, string>;
}

/** An activity as the Bot Connector takes it: the text (markdown) and, for the card, the Adaptive Card. */
function activityOf(message: ChatMessage, id?: string) {
  const card = message.blocks?.find((block) => block.type === ADAPTIVE_CARD);
  return {
    type: 'message',
    ...(id ? { id } : {}),
    ...(card
      ? { attachments: [{ contentType: ADAPTIVE_CARD, content: card.content }], summary: message.text }
      : { text: message.text, textFormat: 'markdown' }),
  };
}

/**
 * A channel's thread: Teams names the conversation of a reply thread `<channel id>;messageid=<id of
 * the thread's first message>`, so the card's id is enough to post in its thread and to update it.
 */
const threadOf = (channelId: string, rootMessageId: string) => `${channelId};messageid=${rootMessageId}`;

/**
 * Microsoft Teams behind the platform boundary (docs/teams.md): incident channels are standard
 * channels of the configured team, made and renamed through Microsoft Graph; the card opens a thread
 * in the channel through the Bot Connector, and the incident's timeline follows as replies in that
 * thread; pages are 1:1 conversations with the bot, addressed by the person's Entra object id.
 */
export function teamsPlatform(config: TeamsConfig, options: TeamsPlatformOptions = {}): ChatPlatform {
  const api = new MicrosoftApi(config, options.gate);
  const team = `/teams/${encodeURIComponent(config.teamId)}`;
  const bot = { id: `28:${config.appId}` };
  const tenant = { id: config.tenantId };
  const conversations = options.directConversations;

  const startThread = async (channelId: string, message: ChatMessage) => {
    const answer = await api.connector<{ id?: string; activityId?: string }>(
      'POST',
      '/v3/conversations',
      {
        isGroup: true,
        bot,
        channelData: { channel: { id: channelId }, tenant },
        activity: activityOf(message),
      },
      channelId,
    );
    if (!answer?.activityId) throw new IncompleteAnswerError('no_activity_id_in_answer');
    return answer.activityId;
  };
  const postTo = async (conversationId: string, message: ChatMessage) => {
    const answer = await api.connector<{ id?: string }>(
      'POST',
      `/v3/conversations/${encodeURIComponent(conversationId)}/activities`,
      activityOf(message),
      conversationId,
    );
    return answer?.id ?? null;
  };
  const patchChannel = (channelId: string, changes: { displayName?: string; description?: string }) =>
    api.graph<void>('PATCH', `${team}/channels/${encodeURIComponent(channelId)}`, changes);

  return {
    name: 'teams',
    render: teamsRenderer,
    channelNames: TEAMS_CHANNEL_NAMING,
    threadsUnderCard: true,
    invitesPeople: false,
    chatIdOf: (person) => person.teams_user_id ?? null,
    async createChannel(name) {
      const channel = await api.graph<{ id?: string; displayName?: string }>('POST', `${team}/channels`, {
        displayName: name,
        membershipType: 'standard',
      });
      if (!channel?.id) throw new IncompleteAnswerError('no_channel_in_answer');
      return { id: channel.id, name: channel.displayName ?? name };
    },
    // Graph finds a channel by its name: the one an earlier try made, whose answer was lost.
    async adoptChannel(name, card) {
      const filter = encodeURIComponent(`displayName eq '${name.replace(/'/g, "''")}'`);
      const found = await api.graph<{ value?: { id: string; displayName: string }[] }>(
        'GET',
        `${team}/channels?$filter=${filter}`,
      );
      const channel = found?.value?.find((c) => c.displayName.toLowerCase() === name.toLowerCase());
      if (!channel) throw new IncompleteAnswerError('channel_not_found_by_name');
      return { channelId: channel.id, messageId: await startThread(channel.id, card) };
    },
    async setTopic(channelId, topic) {
      await patchChannel(channelId, { description: topic });
    },
    // The description is the topic's (renderer.ts): the purpose adds nothing a Teams channel shows.
    async setPurpose() {},
    async postMessage(channelId, message, postOptions) {
      if (postOptions?.threadId) return postTo(threadOf(channelId, postOptions.threadId), message);
      return startThread(channelId, message);
    },
    async updateCard(channelId, messageId, card) {
      const thread = threadOf(channelId, messageId);
      await api.connector<unknown>(
        'PUT',
        `/v3/conversations/${encodeURIComponent(thread)}/activities/${encodeURIComponent(messageId)}`,
        activityOf(card, messageId),
        thread,
      );
    },
    async renameChannel(channelId, name) {
      await patchChannel(channelId, { displayName: name });
    },
    // The bot is installed in the team: it is never out of one of its channels.
    async rejoinChannel() {},
    // A standard channel has every member of the team (`invitesPeople` is false: never called).
    async invite() {},
    async sendDirectMessage(userId, message) {
      let conversationId = conversations?.get(userId);
      if (!conversationId) {
        const opened = await api.connector<{ id?: string }>('POST', '/v3/conversations', {
          isGroup: false,
          bot,
          members: [{ id: userId }],
          channelData: { tenant },
        });
        if (!opened?.id) throw new IncompleteAnswerError('no_conversation_in_answer');
        conversationId = opened.id;
        conversations?.set(userId, conversationId);
      }
      return postTo(conversationId, message);
    },
    classifyError: classifyTeamsError,
  };
}
