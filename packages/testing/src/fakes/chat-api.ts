import type { IncomingMessage, ServerResponse } from 'node:http';
import { Hono } from 'hono';
import { readArgs, tokenOf } from './chat-api/args';
import { conversationMethods } from './chat-api/conversations';
import { type FakeHookPost, HookRecorder } from './chat-api/hooks';
import { messageMethods } from './chat-api/messages';
import { Outage, type OutageOptions } from './chat-api/outage';
import type { MethodContext, SlackAnswer, SlackArgs } from './chat-api/shared';
import {
  ChatWorkspace,
  DEFAULT_CHAT_IDENTITY,
  DEFAULT_CHAT_USERS,
  type FakeChannel,
  type FakeChatUser,
  type FakeEphemeral,
  type FakeMessage,
  type FakeUpdate,
  type SeedChannel,
  type WorkspaceIdentity,
} from './chat-api/state';
import { SLACK_MINUTE_MS, TierLimiter } from './chat-api/tiers';
import { acceptedScopes, DEFAULT_BOT_SCOPES } from './chat-api/validation';
import { FaultQueue } from './faults';
import { listen, type RunningServer, sleep } from './http-server';

/**
 * A fake Slack Web API (docs/integrations/slack.md#web-api) on a real port: point `CHAT_API_URL` / the
 * WebClient's `slackApiUrl` at `url`. It keeps the workspace in memory, refuses what Slack refuses, holds
 * every method to its published rate-limit tier, and lets tests break it the ways Slack breaks (revoked
 * token, missing scope, 429, outages).
 */

export interface FakeChatApiOptions {
  botToken?: string;
  scopes?: readonly string[];
  /** Workspace users for users.info / users.lookupByEmail / invites. Default: alice, bob, carol. */
  users?: FakeChatUser[];
  /** Channels that exist before the test, e.g. to make a name taken. */
  channels?: SeedChannel[];
  identity?: Partial<WorkspaceIdentity>;
  latencyMs?: number;
  /**
   * How long Slack's rate-limit minute lasts here (docs/integrations/slack.md#rate-limits). Default
   * 60 000; a test that opens more channels than a tier allows shrinks it rather than turning limits off.
   */
  tierWindowMs?: number;
  /**
   * Turns the per-method tiers off; the text says why the test needs that (it is required, so that
   * nobody switches limits off without saying so). `rateLimit()` keeps working.
   */
  tierLimitsOffBecause?: string;
}

export interface FakeChatCall {
  method: string;
  /** Parsed arguments; `blocks`/`attachments`/`metadata` form fields are JSON-decoded. */
  args: SlackArgs;
  token: string | undefined;
  time: Date;
  /** HTTP status answered; 0 when the connection was dropped. */
  status: number;
  response: SlackAnswer | undefined;
}

const methods = new Map(Object.entries({ ...conversationMethods, ...messageMethods }));

export class FakeChatApi {
  readonly calls: FakeChatCall[] = [];
  readonly identity: WorkspaceIdentity;
  botToken: string;
  private readonly ws: ChatWorkspace;
  private scopes: Set<string>;
  private tokenError: string | undefined;
  private latencyMs: number;
  private readonly outageControl = new Outage();
  private readonly rateLimits = new FaultQueue<number>();
  private readonly tiers: TierLimiter | undefined;
  private readonly limitedAnswers = new Map<string, number>();
  private readonly failures = new FaultQueue<string>();
  private readonly lostAnswers = new FaultQueue<string>();
  private readonly hooks: HookRecorder;
  private server!: RunningServer;

  constructor(options: FakeChatApiOptions = {}) {
    this.identity = { ...DEFAULT_CHAT_IDENTITY, ...options.identity };
    this.ws = new ChatWorkspace(this.identity);
    this.botToken = options.botToken ?? 'xoxb-fake-bot-token';
    this.scopes = new Set(options.scopes ?? DEFAULT_BOT_SCOPES);
    this.latencyMs = options.latencyMs ?? 0;
    if (options.tierLimitsOffBecause !== undefined && options.tierLimitsOffBecause.trim() === '') {
      throw new Error('fake chat: tierLimitsOffBecause needs the reason the limits are off');
    }
    this.tiers =
      options.tierLimitsOffBecause === undefined
        ? new TierLimiter({ windowMs: options.tierWindowMs ?? SLACK_MINUTE_MS })
        : undefined;
    const bot = { id: this.identity.botUserId, name: this.identity.botName, isBot: true };
    for (const user of [bot, ...(options.users ?? DEFAULT_CHAT_USERS)]) this.ws.users.set(user.id, user);
    for (const seed of options.channels ?? []) this.ws.addChannel(seed);
    this.hooks = new HookRecorder(() => this.origin, this.identity.teamId);
  }

  /** Base URL ending in `/api/`, for `CHAT_API_URL` / `slackApiUrl`. */
  get url(): string {
    return `${this.server.origin}/api/`;
  }

  get origin(): string {
    return this.server.origin;
  }

  async start(): Promise<this> {
    const app = new Hono();
    app.all('/api/:method', async (c) => {
      const method = c.req.param('method');
      const response = await this.handleApi(c.req.raw, method);
      if (this.lostAnswers.take(method) === undefined) return response;
      // The call took effect; its answer never arrives (the caller sees a dropped connection).
      (c.env as { incoming: IncomingMessage }).incoming.socket.destroy();
      return response;
    });
    app.post('/hooks/*', (c) => this.hooks.handle(c.req.raw));
    this.server = await listen(app.fetch, (req, res) => this.interceptOutage(req, res));
    return this;
  }

  close(): Promise<void> {
    return this.server.close();
  }

  // ---- inspection ---------------------------------------------------------------------------------

  callsTo(method: string): FakeChatCall[] {
    return this.calls.filter((c) => c.method === method);
  }

  /** Every non-DM channel, archived and deleted ones included. */
  channels(): FakeChannel[] {
    return [...this.ws.channels.values()].filter((c) => !c.isIm);
  }

  /** By id (deleted ones too) or current name. */
  channel(ref: string): FakeChannel | undefined {
    return this.ws.channels.get(ref) ?? this.ws.find(ref);
  }

  messages(ref: string): FakeMessage[] {
    return this.channel(ref)?.messages ?? [];
  }

  dmChannel(userId: string): FakeChannel | undefined {
    return [...this.ws.channels.values()].find((c) => c.isIm && c.imUser === userId);
  }

  dms(userId: string): FakeMessage[] {
    return this.dmChannel(userId)?.messages ?? [];
  }

  get updates(): readonly FakeUpdate[] {
    return this.ws.updates;
  }

  get ephemerals(): readonly FakeEphemeral[] {
    return this.ws.ephemerals;
  }

  /** A fresh `response_url` on this server; whatever the service posts there lands in `hookPosts`. */
  responseUrl(kind: 'commands' | 'actions' = 'commands'): string {
    return this.hooks.newUrl(kind);
  }

  get hookPosts(): readonly FakeHookPost[] {
    return this.hooks.posts;
  }

  hookPostsTo(url: string): FakeHookPost[] {
    return this.hooks.postsTo(url);
  }

  /** How many HTTP 429 answers `method` got (tier limits and `rateLimit()` alike); all methods without one. */
  rateLimitedCount(method?: string): number {
    if (method !== undefined) return this.limitedAnswers.get(method) ?? 0;
    return [...this.limitedAnswers.values()].reduce((sum, n) => sum + n, 0);
  }

  /** HTTP 429 answers by method. */
  rateLimitedCounts(): Record<string, number> {
    return Object.fromEntries(this.limitedAnswers);
  }

  // ---- state knobs --------------------------------------------------------------------------------

  addUser(user: FakeChatUser): void {
    this.ws.users.set(user.id, user);
  }

  addChannel(seed: SeedChannel): FakeChannel {
    return this.ws.addChannel(seed);
  }

  /** Revoke (`valid: false`) or restore the bot token. Slack answers `invalid_auth`; pass
   * `token_revoked` or `account_inactive` to mimic the other ways an uninstalled app fails. */
  setTokenValid(valid: boolean, error = 'invalid_auth'): void {
    this.tokenError = valid ? undefined : error;
  }

  setScopes(scopes: readonly string[]): void {
    this.scopes = new Set(scopes);
  }

  removeScopes(...scopes: string[]): void {
    for (const scope of scopes) this.scopes.delete(scope);
  }

  addScopes(...scopes: string[]): void {
    for (const scope of scopes) this.scopes.add(scope);
  }

  /** Someone kicked the bot: posts answer `not_in_channel` until conversations.join. */
  removeBotFromChannel(ref: string): void {
    this.mustFind(ref).members.delete(this.identity.botUserId);
  }

  archiveChannel(ref: string): void {
    this.mustFind(ref).archived = true;
  }

  deleteChannel(ref: string): void {
    this.mustFind(ref).deleted = true;
  }

  // ---- fault knobs --------------------------------------------------------------------------------

  /** The next `times` calls to `method` (or any, with `'*'`) answer 429 `ratelimited` with `Retry-After`. */
  rateLimit(options: { method?: string; times?: number; retryAfter?: number } = {}): void {
    this.rateLimits.add(options.method ?? '*', options.retryAfter ?? 1, options.times ?? 1);
  }

  /** The next `times` calls to `method` answer HTTP 200 `{ok: false, error}`. */
  failNext(method: string, error: string, times = 1): void {
    this.failures.add(method, error, times);
  }

  /**
   * The next `times` calls to `method` are carried out, and then the connection drops before the
   * answer: what a caller sees when the network (or its own process) fails mid-call.
   */
  loseAnswers(method: string, times = 1): void {
    this.lostAnswers.add(method, 'lost', times);
  }

  /** The Web API answers 5xx or drops connections; hooks keep working. */
  outage(options: OutageOptions = {}): void {
    this.outageControl.start(options);
  }

  endOutage(): void {
    this.outageControl.end();
  }

  setLatency(ms: number): void {
    this.latencyMs = ms;
  }

  // ---- request handling ---------------------------------------------------------------------------

  private mustFind(ref: string): FakeChannel {
    const channel = this.channel(ref);
    if (!channel) throw new Error(`fake chat: no channel ${ref}`);
    return channel;
  }

  private interceptOutage(req: IncomingMessage, res: ServerResponse): boolean {
    if (!req.url?.startsWith('/api/')) return false;
    const status = this.outageControl.intercept(req, res);
    if (status === null) return false;
    const method = req.url.slice('/api/'.length).split('?')[0] ?? '';
    this.calls.push({ method, args: {}, token: undefined, time: new Date(), status, response: undefined });
    return true;
  }

  /** Seconds until `method` fits its tier again; undefined when the call fits (or tiers are off). */
  private tierRetryAfter(method: string, args: SlackArgs): number | undefined {
    const wait = this.tiers?.admit(method, args) ?? 0;
    return wait > 0 ? wait : undefined;
  }

  private async handleApi(req: Request, method: string): Promise<Response> {
    if (this.latencyMs > 0) await sleep(this.latencyMs);
    const parsed = await readArgs(req);
    const args = parsed === 'invalid_json' ? {} : parsed;
    const token = tokenOf(req, args);
    const call: FakeChatCall = { method, args, token, time: new Date(), status: 200, response: undefined };
    this.calls.push(call);

    const headers: Record<string, string> = {
      'x-oauth-scopes': [...this.scopes].join(','),
      'x-accepted-oauth-scopes': acceptedScopes(method, false)?.join(',') ?? '',
    };
    const answer = (status: number, body: SlackAnswer, extra: Record<string, string> = {}) => {
      call.status = status;
      call.response = body;
      return Response.json(body, { status, headers: { ...headers, ...extra } });
    };

    if (parsed === 'invalid_json') return answer(200, { ok: false, error: 'invalid_json' });
    if (!token) return answer(200, { ok: false, error: 'not_authed' });
    if (token !== this.botToken) return answer(200, { ok: false, error: 'invalid_auth' });
    if (this.tokenError) return answer(200, { ok: false, error: this.tokenError });
    const retryAfter = this.rateLimits.take(method) ?? this.tierRetryAfter(method, args);
    if (retryAfter !== undefined) {
      this.limitedAnswers.set(method, (this.limitedAnswers.get(method) ?? 0) + 1);
      return answer(429, { ok: false, error: 'ratelimited' }, { 'retry-after': String(retryAfter) });
    }
    const injected = this.failures.take(method);
    if (injected) return answer(200, { ok: false, error: injected });
    const handler = methods.get(method);
    // Real Slack answers unknown methods with an error too; HTTP 200 keeps the WebClient from retrying it.
    if (!handler) return answer(200, { ok: false, error: 'unknown_method', req_method: method });
    const ctx: MethodContext = { ws: this.ws, scopes: this.scopes };
    return answer(200, handler(ctx, args));
  }
}

export async function startFakeChatApi(options: FakeChatApiOptions = {}): Promise<FakeChatApi> {
  return new FakeChatApi(options).start();
}

export { DEFAULT_CHAT_IDENTITY, DEFAULT_CHAT_USERS, type FakeHookPost, type OutageOptions };
