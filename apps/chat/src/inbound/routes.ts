import {
  type AppEnv,
  limitBody,
  parseJson,
  readBodyText,
  toAppError,
  WEBHOOK_BODY_LIMIT_BYTES,
} from '@firebreak/http';
import { AppError } from '@firebreak/schema';
import { reportInvalidSignature } from '@firebreak/services';
import type { Context, Hono } from 'hono';
import { createChatClient } from '../slack-client';
import { runBlockActions } from './actions';
import { type CommandEnv, runCommand } from './commands';
import type { ChatInboundDeps } from './deps';
import { handleEvent } from './events';
import { createProfileLookup } from './identity';
import { ephemeral, escapeMrkdwn } from './replies';
import { checkChatSignature } from './signature';

/**
 * What the chat service sends us (CONTRACT.md §7): slash commands, button clicks, Events API. No
 * bearer token and no rate limit (like webhooks), but every request must carry the v0 signature made
 * with CHAT_SIGNING_SECRET; without a secret nothing is accepted. Slack waits 3 seconds: the work
 * here is database work, and whatever the channel must hear goes through the outbox.
 */
export function addChatRoutes(app: Hono<AppEnv>, deps: ChatInboundDeps): void {
  const env: CommandEnv = {
    ctx: deps.ctx,
    config: deps.config,
    lookup: createProfileLookup(createChatClient(deps.config.chat)),
  };
  app.use('/api/v1/chat/*', limitBody(WEBHOOK_BODY_LIMIT_BYTES));

  app.post('/api/v1/chat/commands', async (c) => {
    const form = new URLSearchParams(await readSignedBody(c, deps));
    // Slack checking our certificate (slack-contract.md §2).
    if (form.get('ssl_check') === '1') return c.body(null, 200);
    try {
      return c.json(await runCommand(env, form));
    } catch (error) {
      // The user typed a command and is waiting: tell them, in the answer Slack shows, not as a 500.
      const appError = toAppError(error);
      if (appError.status >= 500) c.get('logger').error({ err: error }, 'chat command failed');
      return c.json(ephemeral(`Firebreak could not do that: ${escapeMrkdwn(appError.message)}`));
    }
  });

  app.post('/api/v1/chat/actions', async (c) => {
    const form = new URLSearchParams(await readSignedBody(c, deps));
    await runBlockActions(env, c.get('logger'), parseJson(form.get('payload') ?? ''));
    return c.body(null, 200);
  });

  app.post('/api/v1/chat/events', async (c) => {
    const raw = await readSignedBody(c, deps);
    const answer = await handleEvent(deps.ctx, c.get('logger'), parseJson(raw));
    return answer ? c.json(answer) : c.body(null, 200);
  });
}

/** The raw body, once its signature is verified (before anything parses it); else 401. */
async function readSignedBody(c: Context<AppEnv>, deps: ChatInboundDeps): Promise<string> {
  const rawBody = await readBodyText(c);
  const failure = checkChatSignature(
    deps.config.chat.signingSecret,
    {
      timestamp: c.req.header('x-slack-request-timestamp'),
      signature: c.req.header('x-slack-signature'),
      rawBody,
    },
    Math.floor(deps.ctx.now().getTime() / 1000),
  );
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
