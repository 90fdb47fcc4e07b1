import { z } from 'zod';
import type { ChatInboundPlatform, InboundCardAction, InboundCommand } from '../chat-platform';
import { type BotAuthVerifier, createBotAuthVerifier } from './bot-auth';

/**
 * The parts of a Bot Connector activity Firebreak reads (Bot Framework "Activity schema"; Teams' own
 * fields under `channelData`). Everything else is ignored.
 */
export const TeamsActivity = z.looseObject({
  type: z.string(),
  id: z.string().optional(),
  channelId: z.string().optional(),
  serviceUrl: z.string().optional(),
  text: z.string().optional(),
  value: z.unknown().optional(),
  from: z
    .looseObject({
      id: z.string().optional(),
      name: z.string().optional(),
      aadObjectId: z.string().optional(),
    })
    .optional(),
  conversation: z.looseObject({ id: z.string(), conversationType: z.string().optional() }).optional(),
  channelData: z
    .looseObject({
      channel: z.looseObject({ id: z.string() }).optional(),
      tenant: z.looseObject({ id: z.string() }).optional(),
    })
    .optional(),
});
export type TeamsActivity = z.infer<typeof TeamsActivity>;

/** What verification needs: the `Authorization` header and the activity as sent. */
export interface TeamsRequest {
  authorization: string | undefined;
  activity: TeamsActivity;
}

/** How the bot is addressed in Teams' help texts: `@Firebreak ack`. */
const COMMAND = '@Firebreak';

/**
 * The person, as Firebreak knows Teams users: by their Microsoft Entra object id (lowercase). A
 * message from outside the directory (a bot, a guest without one) has none, and is refused as an
 * unknown chat user.
 */
function actorOf(activity: TeamsActivity) {
  return {
    id: (activity.from?.aadObjectId ?? '').toLowerCase(),
    name: activity.from?.name ?? '',
  };
}

/**
 * The command typed after the mention: Teams puts `<at>Firebreak</at>` (the bot's display name, which
 * an admin may change) in a channel message's text; in a 1:1 chat there is none. Entities Teams writes
 * (`&nbsp;`, `&amp;`…) are read back as text.
 */
export function commandTextOf(text: string | undefined): string {
  return (text ?? '')
    .replace(/<at>[^<]*<\/at>/gi, ' ')
    .replace(/<[^>]+>/g, ' ')
    .replace(/&nbsp;/g, ' ')
    .replace(/&lt;/g, '<')
    .replace(/&gt;/g, '>')
    .replace(/&quot;/g, '"')
    .replace(/&amp;/g, '&')
    .trim();
}

/** An `Action.Submit` of the incident card sends its `data` back as the message's `value` (renderer.ts). */
const CardSubmit = z.object({ firebreak_action: z.string(), value: z.string() });

/**
 * Teams' inbound half: every activity carries the Bot Connector's JWT, checked as Microsoft documents
 * (bot-auth.ts); a message is a command (the text after the bot's mention), or a click of the card
 * when it carries the card's submit data.
 */
export function teamsInbound(options: {
  appId: string;
  openIdMetadataUrl: string;
  now: () => Date;
}): ChatInboundPlatform<TeamsRequest, TeamsActivity> {
  const verifier: BotAuthVerifier = createBotAuthVerifier({
    appId: options.appId,
    metadataUrl: options.openIdMetadataUrl,
    now: options.now,
  });
  return {
    name: 'teams',
    verify: async ({ authorization, activity }) => {
      const result = await verifier.verify(authorization, {
        channelId: activity.channelId,
        serviceUrl: activity.serviceUrl,
      });
      return result.ok ? null : result.refusal;
    },
    parseCommand: (activity): InboundCommand => ({
      command: COMMAND,
      text: commandTextOf(activity.text),
      user: actorOf(activity),
      // In a channel the incident is the channel's; a 1:1 chat or group chat has none.
      channelId: activity.channelData?.channel?.id ?? '',
    }),
    parseCardAction: (activity): InboundCardAction | undefined => {
      const submit = CardSubmit.safeParse(activity.value);
      if (!submit.success) return undefined;
      return { actionId: submit.data.firebreak_action, value: submit.data.value, user: actorOf(activity) };
    },
  };
}
