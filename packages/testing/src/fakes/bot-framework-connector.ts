import { randomUUID } from 'node:crypto';
import { Hono } from 'hono';
import { listen, type RunningServer } from './http-server';
import { bearerOf, type FakeMicrosoftRequest, FakeThrottle } from './teams-throttle';
import { BOT_FRAMEWORK_SCOPE, type FakeTeamsTokenEndpoint } from './teams-token-endpoint';

/**
 * A fake Bot Connector (the `serviceUrl` of Teams activities), from the Bot Framework REST API
 * reference ("API reference - Bot Connector": Create Conversation, Send to Conversation, Update
 * Activity) and the Teams docs "Send proactive messages", "Optimize your bot: rate limiting", and
 * "Format your bot messages" (message size). It serves:
 * - `POST /v3/conversations`: a 1:1 conversation with one member (a DM; `channelData.tenant.id`
 *   required), or a new thread in a channel (`isGroup` with `channelData.channel.id`, with its first
 *   `activity`); answers `{ id, activityId? }`. A thread's conversation id is
 *   `<channel id>;messageid=<activity id of its first message>`, as Teams names reply threads.
 * - `POST /v3/conversations/{id}/activities`: posts an activity (`type: message`); answers `{ id }`.
 * - `PUT /v3/conversations/{id}/activities/{activityId}`: replaces a posted activity (the card updated
 *   in place); answers `{ id }`.
 * Every call needs a bearer token the token endpoint issued for `https://api.botframework.com/.default`
 * (401 otherwise); an unknown conversation or activity is 404; a message over ~28 KB is 413
 * `MessageSizeTooBig`; more than 7 messages a second (or 60 in 30 s) in one conversation is 429 with
 * `Retry-After`, Teams' per-bot, per-thread limits.
 */

/** Teams' message size limit ("Format your bot messages": about 28 KB including the card). */
const MAX_MESSAGE_BYTES = 28 * 1024;

export interface FakeActivity {
  id: string;
  conversationId: string;
  type: string;
  text?: string;
  attachments?: { contentType: string; content: unknown }[];
  /** Every version, oldest first: an update adds one. */
  versions: unknown[];
}

export interface FakeConversation {
  id: string;
  /** `dm` (1:1 with `memberId`) or `channel` (a thread in `channelId`). */
  kind: 'dm' | 'channel';
  memberId?: string;
  channelId?: string;
  tenantId?: string;
}

export interface FakeBotConnectorOptions {
  tokens: FakeTeamsTokenEndpoint;
  /** The bot's app id (`bot.id` must be `28:<appId>` or the app id when given). */
  appId: string;
  /** Users a DM may be opened with (Teams user ids, `29:…`); any id when not given. */
  knownUsers?: string[];
}

const conversationError = (code: string, message: string) => ({ error: { code, message } });

export class FakeBotConnector {
  readonly requests: FakeMicrosoftRequest[] = [];
  readonly conversations = new Map<string, FakeConversation>();
  readonly activities = new Map<string, FakeActivity>();
  /** Teams' per-bot, per-conversation limits ("Optimize your bot: rate limiting"). */
  readonly throttle = new FakeThrottle([
    { requests: 7, windowMs: 1000 },
    { requests: 60, windowMs: 30_000 },
  ]);
  private server!: RunningServer;

  constructor(private readonly options: FakeBotConnectorOptions) {}

  /** The `serviceUrl` to point the bot at (with a trailing slash, as Teams sends it). */
  get serviceUrl(): string {
    return `${this.server.origin}/`;
  }

  /** The activities of one conversation, oldest first. */
  activitiesIn(conversationId: string): FakeActivity[] {
    return [...this.activities.values()].filter((a) => a.conversationId === conversationId);
  }

  async start(): Promise<this> {
    const app = new Hono();
    app.use('*', async (c, next) => {
      const body = c.req.method === 'GET' ? undefined : await c.req.raw.clone().text();
      await next();
      let code: string | undefined;
      if (c.res.status >= 400) {
        code = (
          (await c.res
            .clone()
            .json()
            .catch(() => ({}))) as { error?: { code?: string } }
        ).error?.code;
      }
      this.requests.push({
        method: c.req.method,
        path: c.req.path,
        status: c.res.status,
        body: body ? safeJson(body) : undefined,
        ...(code ? { code } : {}),
      });
    });
    app.use('*', async (c, next) => {
      if (!this.options.tokens.isValid(bearerOf(c.req.raw), BOT_FRAMEWORK_SCOPE)) {
        return c.json({ message: 'Authorization has been denied for this request.' }, 401);
      }
      await next();
    });
    app.post('/v3/conversations', async (c) => this.createConversation(c.req.raw));
    app.post('/v3/conversations/:id/activities', async (c) => {
      const id = c.req.param('id');
      if (!this.conversations.has(id))
        return c.json(conversationError('ConversationNotFound', 'Conversation not found.'), 404);
      return this.post(id, await c.req.text());
    });
    app.put('/v3/conversations/:id/activities/:activityId', async (c) => {
      const id = c.req.param('id');
      const existing = this.activities.get(c.req.param('activityId'));
      if (!this.conversations.has(id))
        return c.json(conversationError('ConversationNotFound', 'Conversation not found.'), 404);
      if (!existing || existing.conversationId !== id) {
        return c.json(conversationError('ActivityNotFound', 'The activity was not found.'), 404);
      }
      const checked = this.checkMessage(id, await c.req.text());
      if (checked instanceof Response) return checked;
      Object.assign(existing, { text: checked.text, attachments: checked.attachments });
      existing.versions.push(checked);
      return c.json({ id: existing.id }, 200);
    });
    this.server = await listen((request) => app.fetch(request));
    return this;
  }

  close(): Promise<void> {
    return this.server.close();
  }

  private async createConversation(request: Request): Promise<Response> {
    const params = safeJson(await request.text()) as {
      bot?: { id?: string };
      members?: { id?: string }[];
      isGroup?: boolean;
      channelData?: { tenant?: { id?: string }; channel?: { id?: string } };
      activity?: unknown;
    } | null;
    const bad = (message: string) =>
      Response.json(conversationError('BadArgument', message), { status: 400 });
    if (!params || typeof params !== 'object') return bad('Invalid ConversationParameters.');
    const botId = params.bot?.id;
    if (botId && botId !== this.options.appId && botId !== `28:${this.options.appId}`) {
      return bad('The bot id does not match the token.');
    }
    const channelId = params.channelData?.channel?.id;
    if (channelId) {
      if (!params.isGroup) return bad('A channel conversation must be a group conversation (isGroup).');
      if (!params.activity) return bad('A channel conversation is started with its first activity.');
      // Teams names a channel thread after its first message: `<channel id>;messageid=<its id>`.
      const rootId = this.nextActivityId();
      const id = `${channelId};messageid=${rootId}`;
      this.conversations.set(id, { id, kind: 'channel', channelId });
      const first = await this.post(id, JSON.stringify(params.activity), rootId);
      if (first.status >= 400) {
        this.conversations.delete(id);
        return first;
      }
      const { id: activityId } = (await first.json()) as { id: string };
      return Response.json({ id, activityId }, { status: 201 });
    }
    const members = params.members ?? [];
    if (members.length !== 1 || !members[0]?.id) return bad('A 1:1 conversation needs exactly one member.');
    const tenantId = params.channelData?.tenant?.id;
    if (!tenantId) return bad('channelData.tenant.id is required to create a conversation in Teams.');
    const memberId = members[0].id;
    if (this.options.knownUsers && !this.options.knownUsers.includes(memberId)) {
      return Response.json(
        conversationError('NotFound', 'The user is not found or has not installed the bot.'),
        {
          status: 404,
        },
      );
    }
    // One 1:1 conversation per person: asking again answers the same id, as Teams does.
    const existing = [...this.conversations.values()].find((v) => v.kind === 'dm' && v.memberId === memberId);
    if (existing) return Response.json({ id: existing.id }, { status: 200 });
    const id = `a:${randomUUID().replace(/-/g, '')}`;
    this.conversations.set(id, { id, kind: 'dm', memberId, tenantId });
    return Response.json({ id }, { status: 201 });
  }

  private nextActivityId(): string {
    return `${Date.now()}${String(this.activities.size).padStart(4, '0')}`;
  }

  private async post(conversationId: string, raw: string, id = this.nextActivityId()): Promise<Response> {
    const checked = this.checkMessage(conversationId, raw);
    if (checked instanceof Response) return checked;
    this.activities.set(id, {
      id,
      conversationId,
      type: checked.type,
      ...(checked.text !== undefined ? { text: checked.text } : {}),
      ...(checked.attachments ? { attachments: checked.attachments } : {}),
      versions: [checked],
    });
    return Response.json({ id }, { status: 201 });
  }

  /** The activity, if Teams would take it; else the refusal. */
  private checkMessage(
    conversationId: string,
    raw: string,
  ): Response | (Required<Pick<FakeActivity, 'type'>> & Pick<FakeActivity, 'text' | 'attachments'>) {
    const retryAfter = this.throttle.check(conversationId);
    if (retryAfter !== undefined) {
      return Response.json(conversationError('Throttled', 'Too many requests.'), {
        status: 429,
        headers: { 'Retry-After': String(retryAfter) },
      });
    }
    if (Buffer.byteLength(raw) > MAX_MESSAGE_BYTES) {
      return Response.json(conversationError('MessageSizeTooBig', 'Message size too big.'), { status: 413 });
    }
    const activity = safeJson(raw) as FakeActivity | null;
    if (!activity || typeof activity !== 'object' || typeof activity.type !== 'string') {
      return Response.json(conversationError('BadArgument', 'Activity type is required.'), { status: 400 });
    }
    const empty = !activity.text && !(activity.attachments && activity.attachments.length > 0);
    if (activity.type === 'message' && empty) {
      return Response.json(conversationError('BadArgument', 'Unknown activity type or empty message.'), {
        status: 400,
      });
    }
    for (const attachment of activity.attachments ?? []) {
      if (typeof attachment?.contentType !== 'string') {
        return Response.json(conversationError('BadArgument', 'Attachment contentType is required.'), {
          status: 400,
        });
      }
    }
    return { type: activity.type, text: activity.text, attachments: activity.attachments };
  }
}

function safeJson(text: string): unknown {
  try {
    return JSON.parse(text) as unknown;
  } catch {
    return null;
  }
}

export async function startFakeBotConnector(options: FakeBotConnectorOptions): Promise<FakeBotConnector> {
  return new FakeBotConnector(options).start();
}
