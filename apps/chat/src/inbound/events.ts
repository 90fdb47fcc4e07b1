import type { Logger } from '@firebreak/logger';
import {
  askQuestionInChat,
  type ChatProfileLookup,
  claimChatEvent,
  findIncidentByChannel,
  identifyChatUser,
  recordChatMessage,
  type ServiceContext,
} from '@firebreak/services';
import { z } from 'zod';
import { mayReadIncidents } from './identity';

const Envelope = z.object({
  type: z.string(),
  challenge: z.string().optional(),
  event_id: z.string().optional(),
  event: z
    .object({
      type: z.string(),
      subtype: z.string().optional(),
      user: z.string().optional(),
      bot_id: z.string().optional(),
      channel: z.string().optional(),
      text: z.string().optional(),
      ts: z.string().optional(),
      thread_ts: z.string().optional(),
    })
    .optional(),
  authorizations: z
    .array(z.object({ user_id: z.string().optional(), is_bot: z.boolean().optional() }))
    .optional(),
});

type ChatEvent = NonNullable<z.infer<typeof Envelope>['event']>;

export type EventAnswer = { challenge: string } | null;

export interface EventEnv {
  ctx: ServiceContext;
  logger: Logger;
  /** Whether an AI provider is configured (a mention is answered by it, else told AI is off). */
  aiConfigured: boolean;
  /** `users.info`, to tell who asks the bot a question (the commands' identity rules). */
  lookup: ChatProfileLookup;
}

/**
 * Events API deliveries (docs/integrations/slack.md#events). `url_verification` answers its challenge.
 * Of the callbacks: a person's `message` in an incident channel goes on the timeline when
 * `chat_timeline_sync` is on (docs/chat.md#messages-on-the-timeline); an `app_mention` is a question for
 * the bot (docs/chat.md#questions); the bot losing a channel is only logged (the outbound side joins
 * again before its next post). Everything else is acknowledged and dropped. Slack retries slow answers
 * with the same `event_id`: messages and mentions are stored once per message `ts`, the rest claimed
 * once in `chat_events`.
 */
export async function handleEvent(env: EventEnv, body: unknown): Promise<EventAnswer> {
  const { ctx, logger } = env;
  const parsed = Envelope.safeParse(body);
  if (!parsed.success) {
    logger.info('chat: event ignored');
    return null;
  }
  const envelope = parsed.data;
  if (envelope.type === 'url_verification') return { challenge: envelope.challenge ?? '' };
  const event = envelope.event;
  if (envelope.type !== 'event_callback' || !event || !envelope.event_id) return null;

  const botUserId = envelope.authorizations?.find((a) => a.is_bot)?.user_id;
  if (event.type === 'message') {
    await recordMessage(env, event, botUserId);
    return null;
  }
  if (event.type === 'app_mention') {
    await answerMention(env, event, botUserId);
    return null;
  }
  const botLeft =
    event.type === 'channel_left' || (event.type === 'member_left_channel' && event.user === botUserId);
  if (!botLeft || !event.channel) return null;

  if (!(await claimChatEvent(ctx, envelope.event_id))) {
    logger.info({ event_id: envelope.event_id }, 'chat: duplicate event ignored');
    return null;
  }
  const incident = await findIncidentByChannel(ctx, event.channel);
  logger.warn(
    {
      event_id: envelope.event_id,
      channel_id: event.channel,
      ...(incident ? { incident_id: incident.id, number: incident.number } : {}),
    },
    'chat: bot removed from channel',
  );
  return null;
}

/**
 * Subtypes that are still a person's message: a thread reply also sent to the channel, a file with its
 * comment, `/me`. Every other subtype (edits, deletions, joins, topic changes, bot posts) is not.
 */
const PEOPLES_SUBTYPES: ReadonlySet<string> = new Set(['thread_broadcast', 'file_share', 'me_message']);

/** Written by a person: no subtype but those above, and no bot (ours included). */
const byPerson = (event: ChatEvent, botUserId: string | undefined) =>
  (event.subtype === undefined || PEOPLES_SUBTYPES.has(event.subtype)) &&
  event.bot_id === undefined &&
  !!event.user &&
  event.user !== botUserId;

async function recordMessage(env: EventEnv, event: ChatEvent, botUserId: string | undefined): Promise<void> {
  if (!byPerson(event, botUserId) || !event.channel || !event.ts || !event.text) return;
  const outcome = await recordChatMessage(env.ctx, {
    channelId: event.channel,
    chatUserId: event.user!,
    text: event.text,
    ts: event.ts,
  });
  if (outcome === 'duplicate')
    env.logger.info({ channel_id: event.channel, ts: event.ts }, 'chat: duplicate event ignored');
}

async function answerMention(env: EventEnv, event: ChatEvent, botUserId: string | undefined): Promise<void> {
  if (!byPerson(event, botUserId) || !event.channel || !event.ts) return;
  // The mention itself is not part of the question.
  const mention = botUserId ? new RegExp(`<@${botUserId}(\\|[^>]*)?>`, 'g') : /^\s*<@[A-Z0-9]+(\|[^>]*)?>/;
  const question = (event.text ?? '').replace(mention, '').trim();
  const outcome = await askQuestionInChat(env.ctx, {
    channelId: event.channel,
    chatUserId: event.user ?? null,
    text: question || 'Where does this incident stand?',
    ts: event.ts,
    threadTs: event.thread_ts ?? null,
    aiConfigured: env.aiConfigured,
    // An AI answer costs and tells what the incident's record holds: only for people Firebreak knows.
    refusal: async () => {
      const who = { id: event.user!, name: event.user! };
      const permission = mayReadIncidents(await identifyChatUser(env.ctx, who, env.lookup));
      return permission.ok ? undefined : permission.reason;
    },
  });
  env.logger.info({ channel_id: event.channel, ts: event.ts, outcome }, 'chat: bot mentioned');
}
