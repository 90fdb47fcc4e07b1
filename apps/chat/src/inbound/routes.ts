import { createChatClient } from '@firebreak/chat-client';
import {
  type AppEnv,
  addRawOperation,
  answer,
  defineOperation,
  errorAnswers,
  type HttpApp,
  limitBody,
  parseJson,
  readBodyText,
  toAppError,
  WEBHOOK_BODY_LIMIT_BYTES,
} from '@firebreak/http';
import { AppError } from '@firebreak/schema';
import { reportInvalidSignature } from '@firebreak/services';
import type { Context } from 'hono';
import { z } from 'zod';
import { slackInbound } from '../platform/slack/inbound';
import { runCardAction } from './actions';
import { type CommandEnv, runCommand } from './commands';
import type { ChatInboundDeps } from './deps';
import { handleEvent } from './events';
import { createProfileLookup } from './identity';
import { ephemeral, escapeMrkdwn } from './replies';
import { addTeamsRoutes } from './teams-routes';

const signed = {
  headers: z.object({
    'x-slack-request-timestamp': z
      .string()
      .meta({ description: 'Unix seconds; older than 5 minutes is refused' }),
    'x-slack-signature': z.string().meta({ description: '`v0=` hex HMAC-SHA256 of `v0:<timestamp>:<body>`' }),
  }),
};
const signatureNote =
  'Signed by the chat service with `CHAT_SIGNING_SECRET` (401 `invalid_signature` otherwise; without the secret nothing is accepted).';
const form = (schema: z.ZodType) => ({
  content: { 'application/x-www-form-urlencoded': { schema } },
  required: true,
});

const commandsOperation = defineOperation({
  method: 'post',
  path: '/api/v1/chat/commands',
  access: 'public',
  summary: 'A slash command (`/incident …`); answered with the message the user sees',
  description: signatureNote,
  request: {
    ...signed,
    body: form(
      z.looseObject({ command: z.string(), text: z.string(), user_id: z.string(), channel_id: z.string() }),
    ),
  },
  responses: { 200: answer('The reply, shown to the user who typed it'), ...errorAnswers(401, 413) },
});

const actionsOperation = defineOperation({
  method: 'post',
  path: '/api/v1/chat/actions',
  access: 'public',
  summary: 'A button clicked on an incident card',
  description: signatureNote,
  request: {
    ...signed,
    body: form(
      z.object({ payload: z.string().meta({ description: 'The `block_actions` payload, as JSON' }) }),
    ),
  },
  responses: { 200: answer('Done; the card is updated through the outbox'), ...errorAnswers(400, 401, 413) },
});

const eventsOperation = defineOperation({
  method: 'post',
  path: '/api/v1/chat/events',
  access: 'public',
  summary: 'An Events API delivery (and its `url_verification` challenge)',
  description: signatureNote,
  request: {
    ...signed,
    body: {
      content: { 'application/json': { schema: z.looseObject({ type: z.string() }) } },
      required: true,
    },
  },
  responses: {
    200: answer('Received; a `url_verification` is answered with its challenge'),
    ...errorAnswers(400, 401, 413),
  },
});

/**
 * What the chat service sends us: slash commands, button clicks, Events API. No
 * bearer token and no rate limit (like webhooks), but every request must carry the v0 signature made
 * with CHAT_SIGNING_SECRET; without a secret nothing is accepted. Slack waits 3 seconds: the work
 * here is database work, and whatever the channel must hear goes through the outbox.
 */
export function addChatRoutes(app: HttpApp, deps: ChatInboundDeps): void {
  const slack = slackInbound(deps.config.chat.signingSecret, deps.ctx.now);
  const env: CommandEnv = {
    ctx: deps.ctx,
    config: deps.config,
    platform: 'slack',
    lookup: createProfileLookup(createChatClient(deps.config.chat)),
  };
  app.use('/api/v1/chat/*', limitBody(WEBHOOK_BODY_LIMIT_BYTES));

  addRawOperation(app, commandsOperation, async (c) => {
    const form = new URLSearchParams(await readSignedBody(c, deps, slack));
    // Slack checking our certificate: answered 200 with an empty body (docs/integrations/slack.md#commands).
    if (form.get('ssl_check') === '1') return c.body(null, 200);
    try {
      return c.json(await runCommand(env, slack.parseCommand(form)));
    } catch (error) {
      // The user typed a command and is waiting: tell them, in the answer Slack shows, not as a 500.
      const appError = toAppError(error);
      if (appError.status >= 500) c.get('logger').error({ err: error }, 'chat command failed');
      return c.json(ephemeral(`Firebreak could not do that: ${escapeMrkdwn(appError.message)}`));
    }
  });

  addRawOperation(app, actionsOperation, async (c) => {
    const form = new URLSearchParams(await readSignedBody(c, deps, slack));
    const click = slack.parseCardAction(form);
    if (click) await runCardAction(env, c.get('logger'), click);
    else c.get('logger').info({ type: interactionType(form) }, 'chat: interaction ignored');
    return c.body(null, 200);
  });

  addRawOperation(app, eventsOperation, async (c) => {
    const raw = await readSignedBody(c, deps, slack);
    const answer = await handleEvent(
      {
        ctx: deps.ctx,
        logger: c.get('logger'),
        aiConfigured: deps.config.ai.provider !== 'none',
        lookup: env.lookup,
      },
      parseJson(raw),
    );
    return answer ? c.json(answer) : c.body(null, 200);
  });

  addTeamsRoutes(app, deps);
}

/** The raw body, once its signature is verified (before anything parses it); else 401. */
async function readSignedBody(
  c: Context<AppEnv>,
  deps: ChatInboundDeps,
  slack: SlackInbound,
): Promise<string> {
  const rawBody = await readBodyText(c);
  const failure = await slack.verify({
    timestamp: c.req.header('x-slack-request-timestamp'),
    signature: c.req.header('x-slack-signature'),
    rawBody,
  });
  if (failure === null) return rawBody;
  reportInvalidSignature(deps.ctx, 'chat', {
    request_id: c.get('requestId'),
    path: c.req.path,
    why: failure,
  });
  throw new AppError(
    'invalid_signature',
    failure === 'no_signing_secret'
      ? 'CHAT_SIGNING_SECRET is not set; Firebreak refuses unsigned chat requests.'
      : 'X-Slack-Signature is missing, stale (over 5 minutes) or does not match the body.',
  );
}

type SlackInbound = ReturnType<typeof slackInbound>;

/** The `type` of an interaction we do not handle, for the log. */
function interactionType(form: URLSearchParams): unknown {
  return (parseJson(form.get('payload') ?? '') as { type?: unknown } | null)?.type;
}
