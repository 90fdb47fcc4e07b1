import { createHmac } from 'node:crypto';

/**
 * Builders for the requests Slack sends *to* the service (commands, actions and events in
 * docs/integrations/slack.md), signed with the v0 scheme so the service's verification runs for real.
 * Defaults are fixed sample values shaped like Slack's, so `slashCommandBody({ text: 'ack' })` is always
 * the same bytes, and the tests pin its signature as a second vector beside Slack's own.
 */

export const nowSeconds = () => Math.floor(Date.now() / 1000);

/** `v0=` + hex HMAC-SHA256 of `v0:<timestamp>:<raw body>`. */
export function signChatRequest(secret: string, rawBody: string, timestamp: number = nowSeconds()): string {
  return `v0=${createHmac('sha256', secret).update(`v0:${timestamp}:${rawBody}`).digest('hex')}`;
}

export interface SignedChatRequest {
  body: string;
  headers: Record<string, string>;
}

export interface SignOptions {
  /** Unix seconds; default now. Pass an old value to test the 5-minute window. */
  timestamp?: number;
}

export function signedChatRequest(
  secret: string,
  body: string,
  contentType: 'application/x-www-form-urlencoded' | 'application/json',
  options: SignOptions = {},
): SignedChatRequest {
  const timestamp = options.timestamp ?? nowSeconds();
  return {
    body,
    headers: {
      'content-type': contentType,
      'x-slack-request-timestamp': String(timestamp),
      'x-slack-signature': signChatRequest(secret, body, timestamp),
    },
  };
}

/** Slash command fields, in the order Slack sends them. */
export interface SlashCommandFields {
  token: string;
  team_id: string;
  team_domain: string;
  channel_id: string;
  channel_name: string;
  user_id: string;
  user_name: string;
  command: string;
  text: string;
  api_app_id: string;
  is_enterprise_install: string;
  response_url: string;
  trigger_id: string;
}

export const DEFAULT_SLASH_COMMAND: SlashCommandFields = {
  token: 'deprecated-verification-token',
  team_id: 'T0TEAM001',
  team_domain: 'acme',
  channel_id: 'C0INC0042',
  channel_name: 'inc-42-database-primary-down',
  user_id: 'U0ALICE01',
  user_name: 'alice',
  command: '/incident',
  text: '',
  api_app_id: 'A0APP0001',
  is_enterprise_install: 'false',
  response_url: 'https://hooks.slack.com/commands/T0TEAM001/1234567890/abcdefXYZ',
  trigger_id: '1234567890.1111111111.0123456789abcdef0123456789abcdef',
};

/** Form-encoded slash command body. Point `response_url` at `FakeChatApi.responseUrl()` in tests. */
export function slashCommandBody(fields: Partial<SlashCommandFields> = {}): string {
  return new URLSearchParams({ ...DEFAULT_SLASH_COMMAND, ...fields } as Record<string, string>).toString();
}

export function signedSlashCommand(
  secret: string,
  fields: Partial<SlashCommandFields> = {},
  options?: SignOptions,
): SignedChatRequest {
  return signedChatRequest(secret, slashCommandBody(fields), 'application/x-www-form-urlencoded', options);
}

export interface BlockActionInput {
  actionId: string;
  value?: string;
  blockId?: string;
  userId?: string;
  userName?: string;
  channelId?: string;
  channelName?: string;
  /** ts of the message holding the button (`container.message_ts`, `message.ts`). */
  messageTs?: string;
  messageText?: string;
  messageBlocks?: unknown[];
  responseUrl?: string;
  teamId?: string;
}

/** A `block_actions` payload shaped like Slack's (docs/integrations/slack.md#actions), one button click. */
export function blockActionsPayload(input: BlockActionInput): Record<string, unknown> {
  const teamId = input.teamId ?? 'T0TEAM001';
  const userName = input.userName ?? 'bob';
  const channelId = input.channelId ?? 'C0INC0042';
  const messageTs = input.messageTs ?? '1746357740.000200';
  return {
    type: 'block_actions',
    user: { id: input.userId ?? 'U0BOB0002', username: userName, name: userName, team_id: teamId },
    api_app_id: 'A0APP0001',
    token: 'deprecated-verification-token',
    container: { type: 'message', message_ts: messageTs, channel_id: channelId, is_ephemeral: false },
    trigger_id: '1234567890.1111111111.fedcba9876543210fedcba9876543210',
    team: { id: teamId, domain: 'acme' },
    enterprise: null,
    is_enterprise_install: false,
    channel: { id: channelId, name: input.channelName ?? 'inc-42-database-primary-down' },
    message: {
      type: 'message',
      subtype: 'bot_message',
      bot_id: 'B0BOT0001',
      ts: messageTs,
      text: input.messageText ?? '',
      blocks: input.messageBlocks ?? [],
    },
    state: { values: {} },
    response_url: input.responseUrl ?? 'https://hooks.slack.com/actions/T0TEAM001/9876543210/xyzXYZ123',
    actions: [
      {
        type: 'button',
        action_id: input.actionId,
        block_id: input.blockId ?? 'incident_actions',
        text: { type: 'plain_text', text: input.actionId, emoji: true },
        ...(input.value !== undefined ? { value: input.value } : {}),
        action_ts: `${nowSeconds()}.000100`,
      },
    ],
  };
}

/** Interactivity bodies are a single form field `payload=<URL-encoded JSON>`. */
export const blockActionsBody = (payload: Record<string, unknown>): string =>
  `payload=${encodeURIComponent(JSON.stringify(payload))}`;

export function signedBlockActions(
  secret: string,
  input: BlockActionInput | Record<string, unknown>,
  options?: SignOptions,
): SignedChatRequest {
  const payload = 'actionId' in input ? blockActionsPayload(input as BlockActionInput) : input;
  return signedChatRequest(secret, blockActionsBody(payload), 'application/x-www-form-urlencoded', options);
}

export interface EventEnvelopeOptions {
  eventId?: string;
  teamId?: string;
  botUserId?: string;
}

/** Events API `event_callback` envelope around one inner event (docs/integrations/slack.md#events). */
export function eventCallback(
  event: Record<string, unknown>,
  options: EventEnvelopeOptions = {},
): Record<string, unknown> {
  const teamId = options.teamId ?? 'T0TEAM001';
  return {
    token: 'XXYYZZ',
    team_id: teamId,
    api_app_id: 'A0APP0001',
    event,
    type: 'event_callback',
    event_id: options.eventId ?? `Ev0${Math.random().toString(36).slice(2, 12).toUpperCase()}`,
    event_time: nowSeconds(),
    authorizations: [
      {
        enterprise_id: null,
        team_id: teamId,
        user_id: options.botUserId ?? 'U0BOTUSR1',
        is_bot: true,
        is_enterprise_install: false,
      },
    ],
    is_ext_shared_channel: false,
    event_context: '4-eyJldCI6ImZha2UifQ',
  };
}

/** Sent once when the Request URL is configured; no outer envelope. */
export const urlVerification = (challenge = '3eZbrw1aBm2rZgRNFdxV2595E9CY3gmdALWMmHkvFXO7tYXAYM8P') => ({
  token: 'Jhj5dZrVaK7ZwHHjRyZWjbDl',
  challenge,
  type: 'url_verification',
});

export function signedEvent(
  secret: string,
  body: Record<string, unknown>,
  options?: SignOptions,
): SignedChatRequest {
  return signedChatRequest(secret, JSON.stringify(body), 'application/json', options);
}
