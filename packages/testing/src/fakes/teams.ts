import { randomUUID } from 'node:crypto';
import { type FakeBotFrameworkAuth, startFakeBotFrameworkAuth } from './bot-framework-auth';
import { type FakeBotConnector, startFakeBotConnector } from './bot-framework-connector';
import { type FakeGraph, type FakeGraphOptions, startFakeGraph } from './graph-teams';
import { type FakeTeamsTokenEndpoint, startFakeTeamsTokenEndpoint } from './teams-token-endpoint';

/** Ids as Microsoft shows them (GUIDs), fixed so that tests read well. */
export const FAKE_TEAMS_APP_ID = '0f3a1c2e-5b6d-4e7f-8a9b-0c1d2e3f4a5b';
export const FAKE_TEAMS_TENANT_ID = '11111111-2222-4333-8444-555555555555';
export const FAKE_TEAMS_TEAM_ID = '99999999-8888-4777-8666-555555555555';

export interface FakeTeamsOptions {
  /** The directory's users (Graph), each with an Entra object id (`id`). */
  users?: FakeGraphOptions['users'];
  /** Entra object ids a 1:1 conversation may be opened with (people who installed the bot); any when not given. */
  knownUsers?: string[];
}

/**
 * Every Microsoft service a Teams bot talks to, as fakes (each written from Microsoft's documentation,
 * see its file): the identity platform's token endpoint, Graph, the Bot Connector, and the Bot
 * Framework's token issuer for inbound activities; with the environment that points Firebreak at
 * them, and a way to send Firebreak an activity as the Bot Connector would.
 */
export class FakeTeams {
  readonly appId = FAKE_TEAMS_APP_ID;
  readonly appPassword = `secret-${randomUUID()}`;
  readonly tenantId = FAKE_TEAMS_TENANT_ID;
  readonly teamId = FAKE_TEAMS_TEAM_ID;
  tokens!: FakeTeamsTokenEndpoint;
  graph!: FakeGraph;
  connector!: FakeBotConnector;
  issuer!: FakeBotFrameworkAuth;

  constructor(private readonly options: FakeTeamsOptions = {}) {}

  async start(): Promise<this> {
    this.tokens = await startFakeTeamsTokenEndpoint({
      appId: this.appId,
      appPassword: this.appPassword,
      tenantId: this.tenantId,
    });
    this.graph = await startFakeGraph({
      tokens: this.tokens,
      teamId: this.teamId,
      users: this.options.users,
    });
    this.connector = await startFakeBotConnector({
      tokens: this.tokens,
      appId: this.appId,
      ...(this.options.knownUsers ? { knownUsers: this.options.knownUsers } : {}),
    });
    this.issuer = await startFakeBotFrameworkAuth();
    return this;
  }

  /** Firebreak's `TEAMS_*` settings, pointed at these fakes. */
  get env(): Record<string, string> {
    return {
      TEAMS_APP_ID: this.appId,
      TEAMS_APP_PASSWORD: this.appPassword,
      TEAMS_TENANT_ID: this.tenantId,
      TEAMS_TEAM_ID: this.teamId,
      TEAMS_LOGIN_URL: this.tokens.origin,
      TEAMS_GRAPH_URL: this.graph.origin,
      TEAMS_SERVICE_URL: this.connector.serviceUrl,
      TEAMS_OPENID_METADATA_URL: this.issuer.metadataUrl,
    };
  }

  /**
   * An activity as the Bot Connector sends it to the bot's endpoint: the body, and the headers with
   * the Bot Connector's signed token (valid unless `token` says otherwise).
   */
  activity(
    activity: Record<string, unknown>,
    token: { claims?: Record<string, unknown>; none?: boolean } = {},
  ): { body: string; headers: Record<string, string> } {
    const body = {
      channelId: 'msteams',
      serviceUrl: this.connector.serviceUrl,
      id: `${Date.now()}`,
      timestamp: new Date().toISOString(),
      recipient: { id: `28:${this.appId}`, name: 'Firebreak' },
      ...activity,
    };
    const jwt = this.issuer.sign({ aud: this.appId, serviceUrl: this.connector.serviceUrl, ...token.claims });
    return {
      body: JSON.stringify(body),
      headers: {
        'content-type': 'application/json',
        ...(token.none ? {} : { authorization: `Bearer ${jwt}` }),
      },
    };
  }

  async close(): Promise<void> {
    await Promise.all([this.tokens.close(), this.graph.close(), this.connector.close(), this.issuer.close()]);
  }
}

export async function startFakeTeams(options: FakeTeamsOptions = {}): Promise<FakeTeams> {
  return new FakeTeams(options).start();
}
