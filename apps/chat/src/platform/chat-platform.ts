import type { ChatPlatformName } from '@firebreak/schema';
import type { ChatEntry, ChatIncident, ShiftNoticeMessage } from '@firebreak/services';
import type { ChannelNaming } from '../outbound/channel-name';
import type { ChatMessage } from '../outbound/format';

/** The chat platforms Firebreak can talk to; also the prefix of their failure log lines (`slack: …`). */
export type { ChatPlatformName };

/**
 * Why a platform refused a call, in the incident logic's terms; the platform's own code is kept beside
 * it (logged, and stored on `chat_failed` entries).
 * - `name_taken`: a channel of that name exists; `invalid_name`: the name's characters or length.
 * - `not_in_channel`: the bot was removed from the channel (it joins again and repeats the call once).
 * - `not_permitted`: the installation may not do this (renaming, inviting): an admin must act.
 * - `already_member`: the person is (or cannot be more) in the channel: an invite is done.
 * - `about_the_person`: the person cannot be reached (left, disabled, restricted): asking again is useless.
 * - `other`: anything else the platform refuses.
 */
export type RefusalReason =
  | 'name_taken'
  | 'invalid_name'
  | 'not_in_channel'
  | 'not_permitted'
  | 'already_member'
  | 'about_the_person'
  | 'other';

/**
 * The shared failure categories every platform maps its errors to:
 * - `rate_limited`: try again at `retryAfterS` (does not count as a failed try).
 * - `transient`: the platform is down or unreachable; BullMQ backs off and tries again.
 * - `refused`: the platform answered no; trying again gives the same answer.
 */
export type ChatProblem =
  | { kind: 'rate_limited'; code: string; retryAfterS: number }
  | { kind: 'transient'; code: string }
  | { kind: 'refused'; code: string; reason: RefusalReason };

export interface CreatedChannel {
  id: string;
  name: string;
}

interface PostedMessage {
  channelId: string;
  /** The platform's id of the message (Slack's `ts`, a Bot Framework activity id). */
  messageId: string;
}

/**
 * How one platform shows an incident. Each returns a `ChatMessage`: `text` is the notification's
 * fallback, `blocks` the platform's own rich layout (Block Kit for Slack, an Adaptive Card for Teams).
 */
export interface ChatRenderer {
  card(incident: ChatIncident, publicUrl: string): ChatMessage;
  /** A timeline entry the channel hears (outbound/messages.ts lists which). */
  entry(entry: ChatEntry): ChatMessage;
  topic(incident: ChatIncident): string;
  purpose(incident: ChatIncident, publicUrl: string): string;
  /** The topic of a resolved channel that could not take the literal `[RESOLVED] ` name. */
  resolvedTopic(literal: string, incident: ChatIncident): string;
  /** A page by direct message; `ackUrl` is the person's own one-click acknowledge link. */
  page(incident: ChatIncident, publicUrl: string, channelId: string | null, ackUrl?: string): ChatMessage;
  /** The direct message telling someone their shift has started (docs/schedules.md#shift-notices). */
  shiftNotice(message: ShiftNoticeMessage): string;
  /** An answer of the bot, shown as text whatever it contains (it may quote a prompt-injected alert). */
  plainText(text: string): string;
}

/**
 * What the incident logic (apps/chat/src/outbound) asks of a chat platform. It is written once against
 * this: each platform module turns these calls into its API and its errors into `ChatProblem`s
 * (`classifyError`); a 429 carries `retryAfter` (seconds) on the error it throws, which the shared
 * rate-limit pauses read (rate-limit-pauses.ts). Ids are the platform's own (channel, message, user).
 */
export interface ChatPlatform {
  readonly name: ChatPlatformName;
  readonly render: ChatRenderer;
  readonly channelNames: ChannelNaming;
  /**
   * Timeline entries go in the card's thread (Teams: a channel is a list of threads, and the incident
   * is one), not as posts of their own beside it (Slack).
   */
  readonly threadsUnderCard: boolean;
  /** Whether the incident's people are invited to its channel (Slack); a Teams standard channel has the whole team. */
  readonly invitesPeople: boolean;
  /** The person's id on this platform, from an escalation target or a user row; null when they have none. */
  chatIdOf(person: { slack_user_id?: string | null; teams_user_id?: string | null }): string | null;
  createChannel(name: string): Promise<CreatedChannel>;
  /**
   * A channel an earlier try created under `name` whose answer was lost: found, and the card posted
   * in it, so it becomes the incident's (open-channel.ts).
   */
  adoptChannel(name: string, card: ChatMessage): Promise<PostedMessage>;
  setTopic(channelId: string, topic: string): Promise<void>;
  setPurpose(channelId: string, purpose: string): Promise<void>;
  /**
   * Posts in a channel (in a thread when `threadId` is given); answers the message's id, or null when
   * the platform accepted the post without giving one. The post happened either way: callers that need
   * the id (the card, timeline entries: channel-calls.ts) treat null as an incomplete answer, the others
   * record what they got rather than post again.
   */
  postMessage(
    channelId: string,
    message: ChatMessage,
    options?: { threadId?: string },
  ): Promise<string | null>;
  /** Replaces a posted card in place. */
  updateCard(channelId: string, messageId: string, card: ChatMessage): Promise<void>;
  renameChannel(channelId: string, name: string): Promise<void>;
  /** Brings the bot back into a channel it was removed from. */
  rejoinChannel(channelId: string): Promise<void>;
  invite(channelId: string, userId: string): Promise<void>;
  /** A direct message to a person; answers the message's id, if the platform gave one. */
  sendDirectMessage(userId: string, message: ChatMessage): Promise<string | null>;
  /** Undefined for errors that are not the platform's (a bug of ours: BullMQ retries those). */
  classifyError(error: unknown): ChatProblem | undefined;
}

/** A person acting in chat, by the platform's user id. */
interface ChatActor {
  id: string;
  name: string;
}

/** A command typed to the bot (`/incident ack` in Slack, `@Firebreak ack` in Teams). */
export interface InboundCommand {
  /** How the user invoked the bot, for help texts (`/incident`). */
  command: string;
  /** What followed it (`ack`, `new Database down`). */
  text: string;
  user: ChatActor;
  channelId: string;
}

/** A button clicked on an incident card. */
export interface InboundCardAction {
  /** The card button's action (`incident_acknowledge`…, card.ts). */
  actionId: string;
  /** The button's value: the incident id, for Escalate `<id>:<tier>`. */
  value: string;
  user: ChatActor;
  /** Where later replies to the clicking user go (Slack's `response_url`), when the platform has one. */
  replyUrl?: string;
}

/** Why an inbound request was refused (logged, never shown to the sender). */
type InboundRefusal = string;

/**
 * The inbound half of a platform: is a request genuine (checked before anything parses it), and what
 * does it ask, in neutral terms; the incident logic (inbound/commands.ts, actions.ts) takes it from there.
 * `Request` is what verification needs (headers and raw body), `Body` the parsed delivery.
 */
export interface ChatInboundPlatform<Request, Body> {
  readonly name: ChatPlatformName;
  /** Null when the request is genuine, else why not. */
  verify(request: Request): Promise<InboundRefusal | null>;
  /** The command typed to the bot (the route only hands it command deliveries). */
  parseCommand(body: Body): InboundCommand;
  /** A card button clicked; undefined for any other interaction (logged and ignored). */
  parseCardAction(body: Body): InboundCardAction | undefined;
}
