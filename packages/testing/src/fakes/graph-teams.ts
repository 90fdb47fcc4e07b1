import { randomUUID } from 'node:crypto';
import { type Context, Hono } from 'hono';
import { listen, type RunningServer } from './http-server';
import { bearerOf, type FakeMicrosoftRequest, FakeThrottle } from './teams-throttle';
import { type FakeTeamsTokenEndpoint, GRAPH_SCOPE } from './teams-token-endpoint';

/**
 * A fake Microsoft Graph (v1.0) for what a Teams incident channel needs, from the Graph reference pages
 * "Create channel", "Update channel", "Get user" and "Add member to channel", the Teams article
 * "Limits and specifications for Microsoft Teams" (channel names) and "Microsoft Graph throttling
 * guidance" (429 with `Retry-After`):
 * - `POST /v1.0/teams/{team-id}/channels`: `displayName` required, at most 50 characters, none of
 *   `~ # % & * { } + / \ : < > ? | ' "`, not starting with `_` or `.`; unique in the team (ignoring
 *   case) → 409 `NameAlreadyExists`. Answers 201 with the channel (`19:…@thread.tacv2`).
 * - `GET /v1.0/teams/{team-id}/channels`: the team's channels, `$filter=displayName eq '…'` honoured.
 * - `PATCH /v1.0/teams/{team-id}/channels/{channel-id}`: the same rules for a new `displayName`; 204.
 * - `GET /v1.0/users/{id | userPrincipalName}`: 404 `Request_ResourceNotFound` for nobody.
 * - `POST /v1.0/teams/{team-id}/channels/{channel-id}/members`: an `aadUserConversationMember` bound to
 *   a user; only private and shared channels take members (a standard channel has the whole team):
 *   400 for a standard channel, 404 for an unknown user, 409 when already a member.
 * Every call needs a bearer token the token endpoint issued for `https://graph.microsoft.com/.default`
 * (401 `InvalidAuthenticationToken` otherwise).
 */

export const CHANNEL_NAME_MAX_LENGTH = 50;
const FORBIDDEN_NAME_CHARACTERS = /[~#%&*{}+/\\:<>?|'"]/;

export interface FakeGraphUser {
  id: string;
  displayName: string;
  mail: string | null;
  userPrincipalName: string;
}

export interface FakeGraphChannel {
  id: string;
  teamId: string;
  displayName: string;
  description: string | null;
  membershipType: 'standard' | 'private' | 'shared';
  /** User ids of the members added (private and shared channels). */
  members: string[];
  /** Every display name it had, oldest first. */
  names: string[];
}

export interface FakeGraphOptions {
  tokens: FakeTeamsTokenEndpoint;
  teamId: string;
  /** The directory's users (an id is made up when not given). */
  users?: (Partial<FakeGraphUser> & { displayName: string; userPrincipalName: string })[];
  /** Requests per second (per app and tenant) before 429 (default 30). */
  requestsPerSecond?: number;
}

const graphError = (code: string, message: string) => ({
  error: {
    code,
    message,
    innerError: {
      date: new Date().toISOString(),
      'request-id': randomUUID(),
      'client-request-id': randomUUID(),
    },
  },
});

/** Why Teams refuses a channel name, or undefined when it takes it. */
export function teamsChannelNameError(name: unknown): string | undefined {
  if (typeof name !== 'string' || name.trim() === '') return 'displayName is required.';
  if (name.length > CHANNEL_NAME_MAX_LENGTH) {
    return `Channel name cannot be longer than ${CHANNEL_NAME_MAX_LENGTH} characters.`;
  }
  if (FORBIDDEN_NAME_CHARACTERS.test(name)) {
    return `Channel name contains invalid characters: ~ # % & * { } + / \\ : < > ? | ' ".`;
  }
  if (name.startsWith('_') || name.startsWith('.'))
    return 'Channel name cannot start with an underscore or period.';
  return undefined;
}

export class FakeGraph {
  readonly requests: FakeMicrosoftRequest[] = [];
  readonly users: FakeGraphUser[];
  readonly channels = new Map<string, FakeGraphChannel>();
  readonly throttle: FakeThrottle;
  private server!: RunningServer;

  constructor(private readonly options: FakeGraphOptions) {
    this.users = (options.users ?? []).map((u) => ({
      id: u.id ?? randomUUID(),
      displayName: u.displayName,
      mail: u.mail ?? u.userPrincipalName,
      userPrincipalName: u.userPrincipalName,
    }));
    this.throttle = new FakeThrottle([{ requests: options.requestsPerSecond ?? 30, windowMs: 1000 }]);
  }

  /** Point the Graph base URL here (`…/v1.0/…` follows). */
  get origin(): string {
    return this.server.origin;
  }

  channelsOf(teamId = this.options.teamId): FakeGraphChannel[] {
    return [...this.channels.values()].filter((c) => c.teamId === teamId);
  }

  async start(): Promise<this> {
    const app = new Hono();
    app.use('*', async (c, next) => {
      const raw = c.req.method === 'GET' ? '' : await c.req.raw.clone().text();
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
        body: raw ? safeJson(raw) : undefined,
        ...(code ? { code } : {}),
      });
    });
    app.use('*', async (c, next) => {
      const token = bearerOf(c.req.raw);
      if (!this.options.tokens.isValid(token, GRAPH_SCOPE)) {
        const message = token ? 'Access token has expired or is not yet valid.' : 'Access token is empty.';
        return c.json(graphError('InvalidAuthenticationToken', message), 401);
      }
      const retryAfter = this.throttle.check('app');
      if (retryAfter !== undefined) {
        return c.json(graphError('TooManyRequests', 'Too many requests.'), 429, {
          'Retry-After': String(retryAfter),
        });
      }
      await next();
    });
    app.post('/v1.0/teams/:teamId/channels', (c) => this.createChannel(c));
    app.get('/v1.0/teams/:teamId/channels', (c) => this.listChannels(c));
    app.patch('/v1.0/teams/:teamId/channels/:channelId', (c) => this.updateChannel(c));
    app.get('/v1.0/users/:ref', (c) => {
      const ref = decodeURIComponent(c.req.param('ref')).toLowerCase();
      const user = this.users.find((u) => u.id === ref || u.userPrincipalName.toLowerCase() === ref);
      if (!user) return c.json(notFound(c.req.param('ref')), 404);
      return c.json({
        '@odata.context': 'https://graph.microsoft.com/v1.0/$metadata#users/$entity',
        ...user,
      });
    });
    app.post('/v1.0/teams/:teamId/channels/:channelId/members', (c) => this.addMember(c));
    this.server = await listen((request) => app.fetch(request));
    return this;
  }

  close(): Promise<void> {
    return this.server.close();
  }

  private team(c: Context): Response | undefined {
    if (c.req.param('teamId') === this.options.teamId) return undefined;
    return c.json(graphError('NotFound', `No team found with Group Id ${c.req.param('teamId')}`), 404);
  }

  private nameTaken(teamId: string, name: string, except?: string): boolean {
    return this.channelsOf(teamId).some(
      (ch) => ch.id !== except && ch.displayName.toLowerCase() === name.toLowerCase(),
    );
  }

  private async createChannel(c: Context): Promise<Response> {
    const noTeam = this.team(c);
    if (noTeam) return noTeam;
    const body = safeJson(await c.req.text()) as {
      displayName?: unknown;
      description?: unknown;
      membershipType?: unknown;
      members?: unknown[];
    } | null;
    const invalid = teamsChannelNameError(body?.displayName);
    if (!body || invalid) return c.json(graphError('BadRequest', invalid ?? 'Invalid request body.'), 400);
    const membershipType = body.membershipType ?? 'standard';
    if (membershipType !== 'standard' && membershipType !== 'private' && membershipType !== 'shared') {
      return c.json(graphError('BadRequest', `Invalid membershipType '${String(membershipType)}'.`), 400);
    }
    // Created with application permissions, a private or shared channel needs its owner in `members`.
    if (membershipType !== 'standard' && !(Array.isArray(body.members) && body.members.length > 0)) {
      return c.json(
        graphError('BadRequest', 'A private or shared channel needs at least one owner in members.'),
        400,
      );
    }
    const teamId = c.req.param('teamId')!;
    const displayName = body.displayName as string;
    if (this.nameTaken(teamId, displayName)) {
      return c.json(
        graphError('NameAlreadyExists', 'Channel name already existed, please use other name.'),
        409,
      );
    }
    const channel: FakeGraphChannel = {
      id: `19:${randomUUID().replace(/-/g, '')}@thread.tacv2`,
      teamId,
      displayName,
      description: typeof body.description === 'string' ? body.description : null,
      membershipType,
      members: [],
      names: [displayName],
    };
    this.channels.set(channel.id, channel);
    return c.json(
      {
        '@odata.context': `https://graph.microsoft.com/v1.0/$metadata#teams('${teamId}')/channels/$entity`,
        id: channel.id,
        createdDateTime: new Date().toISOString(),
        displayName,
        description: channel.description,
        membershipType,
        webUrl: `https://teams.microsoft.com/l/channel/${encodeURIComponent(channel.id)}/${encodeURIComponent(displayName)}`,
      },
      201,
    );
  }

  /** "List channels", with the one `$filter` Graph documents for it that Firebreak uses: `displayName eq '…'`. */
  private listChannels(c: Context): Response {
    const noTeam = this.team(c);
    if (noTeam) return noTeam;
    const filter = c.req.query('$filter');
    let channels = this.channelsOf(c.req.param('teamId')!);
    if (filter !== undefined) {
      const match = /^displayName eq '((?:[^']|'')*)'$/.exec(filter);
      if (!match) return c.json(graphError('BadRequest', `Invalid filter clause: ${filter}`), 400);
      const name = match[1]!.replace(/''/g, "'");
      channels = channels.filter((ch) => ch.displayName === name);
    }
    return c.json({
      '@odata.context': `https://graph.microsoft.com/v1.0/$metadata#teams('${c.req.param('teamId')}')/channels`,
      '@odata.count': channels.length,
      value: channels.map((ch) => ({
        id: ch.id,
        displayName: ch.displayName,
        description: ch.description,
        membershipType: ch.membershipType,
      })),
    });
  }

  private async updateChannel(c: Context): Promise<Response> {
    const noTeam = this.team(c);
    if (noTeam) return noTeam;
    const channel = this.channels.get(decodeURIComponent(c.req.param('channelId')!));
    if (!channel) return c.json(graphError('NotFound', 'Channel not found.'), 404);
    const body = safeJson(await c.req.text()) as { displayName?: unknown; description?: unknown } | null;
    if (!body) return c.json(graphError('BadRequest', 'Invalid request body.'), 400);
    if (body.displayName !== undefined) {
      const invalid = teamsChannelNameError(body.displayName);
      if (invalid) return c.json(graphError('BadRequest', invalid), 400);
      const name = body.displayName as string;
      if (this.nameTaken(channel.teamId, name, channel.id)) {
        return c.json(
          graphError('NameAlreadyExists', 'Channel name already existed, please use other name.'),
          409,
        );
      }
      channel.displayName = name;
      channel.names.push(name);
    }
    if (typeof body.description === 'string') channel.description = body.description;
    return c.body(null, 204);
  }

  private async addMember(c: Context): Promise<Response> {
    const noTeam = this.team(c);
    if (noTeam) return noTeam;
    const channel = this.channels.get(decodeURIComponent(c.req.param('channelId')!));
    if (!channel) return c.json(graphError('NotFound', 'Channel not found.'), 404);
    if (channel.membershipType === 'standard') {
      return c.json(
        graphError(
          'BadRequest',
          'Members can only be added to private or shared channels; a standard channel has every team member.',
        ),
        400,
      );
    }
    const body = safeJson(await c.req.text()) as Record<string, unknown> | null;
    const bind = typeof body?.['user@odata.bind'] === 'string' ? (body['user@odata.bind'] as string) : '';
    const ref = /users\('([^']+)'\)$/.exec(bind)?.[1];
    if (body?.['@odata.type'] !== '#microsoft.graph.aadUserConversationMember' || !ref) {
      return c.json(
        graphError('BadRequest', 'Expected an aadUserConversationMember with user@odata.bind.'),
        400,
      );
    }
    const user = this.users.find(
      (u) => u.id === ref || u.userPrincipalName.toLowerCase() === ref.toLowerCase(),
    );
    if (!user) return c.json(notFound(ref), 404);
    if (channel.members.includes(user.id)) {
      return c.json(graphError('Conflict', 'The user is already a member of the channel.'), 409);
    }
    channel.members.push(user.id);
    return c.json(
      {
        '@odata.type': '#microsoft.graph.aadUserConversationMember',
        id: randomUUID(),
        roles: Array.isArray(body.roles) ? body.roles : [],
        displayName: user.displayName,
        userId: user.id,
        email: user.mail,
      },
      201,
    );
  }
}

const notFound = (ref: string) =>
  graphError(
    'Request_ResourceNotFound',
    `Resource '${ref}' does not exist or one of its queried reference-property objects are not present.`,
  );

function safeJson(text: string): unknown {
  try {
    return JSON.parse(text) as unknown;
  } catch {
    return null;
  }
}

export async function startFakeGraph(options: FakeGraphOptions): Promise<FakeGraph> {
  return new FakeGraph(options).start();
}
