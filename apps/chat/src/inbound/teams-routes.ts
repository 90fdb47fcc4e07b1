import {
  type AppEnv,
  addRawOperation,
  answer,
  defineOperation,
  errorAnswers,
  type HttpApp,
  parseJson,
  readBodyText,
  toAppError,
} from '@firebreak/http';
import type { Logger } from '@firebreak/logger';
import { AppError } from '@firebreak/schema';
import { reportInvalidSignature } from '@firebreak/services';
import type { Context } from 'hono';
import { z } from 'zod';
import { type TeamsActivity as Activity, TeamsActivity, teamsInbound } from '../platform/teams/inbound';
import { MicrosoftApi } from '../platform/teams/microsoft-api';
import { createTeamsProfileLookup } from '../platform/teams/profile-lookup';
import { slackReplyToTeams } from '../platform/teams/reply-text';
import { runCardAction } from './actions';
import { type CommandEnv, runCommand } from './commands';
import type { ChatInboundDeps } from './deps';
import { escapeMrkdwn } from './replies';

const messagesOperation = defineOperation({
  method: 'post',
  path: '/api/v1/chat/teams/messages',
  access: 'public',
  summary: 'A Microsoft Teams activity for the bot (its messaging endpoint): a command or a card click',
  description:
    'Sent by the Bot Connector with its JWT in `Authorization` (401 `invalid_signature` when the token ' +
    'is missing or not genuine, and whenever Teams is not configured). Replies go back through the Bot ' +
    'Connector; the answer is an empty 200 (docs/teams.md).',
  request: {
    headers: z.object({
      authorization: z.string().meta({ description: '`Bearer <JWT>` of the Bot Connector' }),
    }),
    body: {
      content: { 'application/json': { schema: z.looseObject({ type: z.string() }) } },
      required: true,
    },
  },
  responses: { 200: answer('Received'), ...errorAnswers(400, 401, 413) },
});

// A reply that cannot reach the Bot Connector in this long is given up (and logged): the user's
// change is made either way, and Teams waits 15 seconds in all for the answer.
const REPLY_BUDGET_MS = 5000;

/**
 * The Teams bot's messaging endpoint (docs/teams.md): every activity's token is checked first (the
 * Bot Connector signs each one); a message mentioning the bot is a command (`ack`, `resolve`, `status`,
 * `new <title>`… as `/incident` takes them in Slack), a card button's submit is a click. Everything the
 * incident logic does is the Slack route's (commands.ts, actions.ts); only the identity (the person's
 * Entra object id), the channel (the Teams channel's id) and the way replies go back are Teams'.
 */
export function addTeamsRoutes(app: HttpApp, deps: ChatInboundDeps): void {
  const teams = deps.config.teams;
  const inbound = teams ? teamsInbound({ ...teams, now: deps.ctx.now }) : undefined;
  const api = teams ? new MicrosoftApi(teams) : undefined;
  addRawOperation(app, messagesOperation, async (c) => {
    const raw = await readBodyText(c);
    const parsed = TeamsActivity.safeParse(parseJson(raw));
    if (!inbound || !teams || !api) refuse(c, deps, 'teams_not_configured');
    const activity = parsed.success ? parsed.data : ({ type: '' } as Activity);
    const refusal = await inbound.verify({ authorization: c.req.header('authorization'), activity });
    if (refusal !== null) refuse(c, deps, refusal);
    if (!parsed.success) throw new AppError('validation_failed', 'The body is not a Bot Framework activity.');
    const logger = c.get('logger');
    if (activity.type !== 'message' || !activity.conversation || !activity.serviceUrl) {
      logger.info({ type: activity.type }, 'teams: activity ignored');
      return c.body(null, 200);
    }
    const env: CommandEnv = {
      ctx: deps.ctx,
      config: deps.config,
      platform: 'teams',
      lookup: createTeamsProfileLookup(api),
    };
    const reply = (text: string) => sendReply(api, logger, activity, text);
    const click = inbound.parseCardAction(activity);
    if (click) {
      const replies: Promise<void>[] = [];
      await runCardAction(env, logger, click, (text) => replies.push(reply(text)));
      await Promise.all(replies);
      return c.body(null, 200);
    }
    await reply(await commandReply(env, logger, inbound.parseCommand(activity)));
    return c.body(null, 200);
  });
}

/** What the command answers; a failure is told to the user, as the Slack route does. */
async function commandReply(
  env: CommandEnv,
  logger: Logger,
  command: Parameters<typeof runCommand>[1],
): Promise<string> {
  try {
    return (await runCommand(env, command)).text;
  } catch (error) {
    const appError = toAppError(error);
    if (appError.status >= 500) logger.error({ err: error }, 'chat command failed');
    return `Firebreak could not do that: ${escapeMrkdwn(appError.message)}`;
  }
}

/** The reply, in the conversation (a channel's thread, or the 1:1 chat) the activity came from. Never throws. */
async function sendReply(api: MicrosoftApi, logger: Logger, activity: Activity, slackText: string) {
  const text = slackReplyToTeams(slackText, activity.from?.name ?? '');
  const body = {
    type: 'message',
    text,
    textFormat: 'markdown',
    ...(activity.id ? { replyToId: activity.id } : {}),
  };
  let timer: NodeJS.Timeout | undefined;
  try {
    await Promise.race([
      api.reply(activity.serviceUrl!, activity.conversation!.id, body),
      new Promise((_, reject) => {
        timer = setTimeout(() => reject(new Error(`no answer in ${REPLY_BUDGET_MS} ms`)), REPLY_BUDGET_MS);
      }),
    ]);
  } catch (error) {
    logger.warn({ reason: error instanceof Error ? error.message : String(error) }, 'teams: reply failed');
  } finally {
    clearTimeout(timer);
  }
}

function refuse(c: Context<AppEnv>, deps: ChatInboundDeps, why: string): never {
  reportInvalidSignature(deps.ctx, 'chat', { request_id: c.get('requestId'), path: c.req.path, why });
  throw new AppError(
    'invalid_signature',
    why === 'teams_not_configured'
      ? 'Teams is not configured (TEAMS_APP_ID, TEAMS_APP_PASSWORD, TEAMS_TENANT_ID, TEAMS_TEAM_ID); Firebreak refuses Teams activities.'
      : 'The Bot Connector token is missing or not genuine.',
  );
}
