import { parseJson } from '@firebreak/http';
import { z } from 'zod';
import type { ChatInboundPlatform, InboundCardAction, InboundCommand } from '../chat-platform';
import { checkChatSignature, type SignedRequest } from './signature';

/**
 * Slack's inbound half: the v0 signature over the raw body (signature.ts); commands and clicks come as
 * forms (a click's `payload` field holds its JSON).
 */
export function slackInbound(
  signingSecret: string | undefined,
  now: () => Date,
): ChatInboundPlatform<SignedRequest, URLSearchParams> {
  return {
    name: 'slack',
    verify: async (request) => checkChatSignature(signingSecret, request, Math.floor(now().getTime() / 1000)),
    parseCommand: parseSlackCommand,
    parseCardAction: (form) => parseSlackCardAction(parseJson(form.get('payload') ?? '')),
  };
}

/** A slash command's form (docs/integrations/slack.md#commands) in neutral terms. */
function parseSlackCommand(form: URLSearchParams): InboundCommand {
  return {
    command: form.get('command') || '/incident',
    text: form.get('text') ?? '',
    user: { id: form.get('user_id') ?? '', name: form.get('user_name') ?? '' },
    channelId: form.get('channel_id') ?? '',
  };
}

/** The `block_actions` payload fields we use (docs/integrations/slack.md#actions); the rest is ignored. */
const BlockActions = z.object({
  type: z.literal('block_actions'),
  user: z.object({ id: z.string().min(1), name: z.string().optional(), username: z.string().optional() }),
  response_url: z.string().optional(),
  actions: z.array(z.object({ action_id: z.string(), value: z.string().optional() })).min(1),
});

/** A button click in neutral terms; undefined for any other interaction (logged and ignored by the caller). */
function parseSlackCardAction(payload: unknown): InboundCardAction | undefined {
  const parsed = BlockActions.safeParse(payload);
  if (!parsed.success) return undefined;
  const { user, response_url: replyUrl, actions } = parsed.data;
  const { action_id: actionId, value } = actions[0]!;
  return {
    actionId,
    value: value ?? '',
    user: { id: user.id, name: user.name ?? user.username ?? user.id },
    ...(replyUrl ? { replyUrl } : {}),
  };
}
