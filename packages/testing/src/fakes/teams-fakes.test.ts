import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type FakeBotConnector, startFakeBotConnector } from './bot-framework-connector';
import { type FakeGraph, startFakeGraph } from './graph-teams';
import {
  BOT_FRAMEWORK_SCOPE,
  type FakeTeamsTokenEndpoint,
  GRAPH_SCOPE,
  startFakeTeamsTokenEndpoint,
} from './teams-token-endpoint';

const APP = {
  appId: '11111111-2222-4333-8444-555555555555',
  appPassword: 'right~secret',
  tenantId: 'contoso-tenant',
};
const TEAM = 'team-0001';

let tokens: FakeTeamsTokenEndpoint;
let connector: FakeBotConnector;
let graph: FakeGraph;
beforeAll(async () => {
  tokens = await startFakeTeamsTokenEndpoint(APP);
  connector = await startFakeBotConnector({ tokens, appId: APP.appId });
  graph = await startFakeGraph({
    tokens,
    teamId: TEAM,
    // The name rules below make many calls at once; the limit has its own test.
    requestsPerSecond: 1000,
    users: [{ id: 'aad-alice', displayName: 'Alice', userPrincipalName: 'alice@contoso.example' }],
  });
});
afterAll(async () => {
  await Promise.all([tokens.close(), connector.close(), graph.close()]);
});

const askToken = (fields: Record<string, string>, tenant = APP.tenantId) =>
  fetch(tokens.tokenUrl(tenant), {
    method: 'POST',
    headers: { 'content-type': 'application/x-www-form-urlencoded' },
    body: new URLSearchParams(fields),
  });
const grant = (scope: string) => ({
  grant_type: 'client_credentials',
  client_id: APP.appId,
  client_secret: APP.appPassword,
  scope,
});
// Kept per scope, as a client would: the endpoint throttles a client asking for one per call.
const issued = new Map<string, string>();
async function tokenFor(scope: string): Promise<string> {
  const known = issued.get(scope);
  if (known) return known;
  const res = await askToken(grant(scope));
  expect(res.status).toBe(200);
  const token = ((await res.json()) as { access_token: string }).access_token;
  issued.set(scope, token);
  return token;
}

describe('fake Azure AD token endpoint', () => {
  it('issues client-credentials tokens for the Bot Framework and Graph scopes', async () => {
    const res = await askToken(grant(BOT_FRAMEWORK_SCOPE), 'botframework.com');
    expect(res.status).toBe(200);
    const body = (await res.json()) as { token_type: string; expires_in: number; access_token: string };
    expect(body).toMatchObject({ token_type: 'Bearer', expires_in: 3599 });
    expect(tokens.isValid(body.access_token, BOT_FRAMEWORK_SCOPE)).toBe(true);
    expect(tokens.isValid(body.access_token, GRAPH_SCOPE)).toBe(false);
  });

  it('refuses a wrong secret with the AADSTS 401 body', async () => {
    const res = await askToken({ ...grant(GRAPH_SCOPE), client_secret: 'wrong' });
    expect(res.status).toBe(401);
    const body = (await res.json()) as { error: string; error_description: string; error_codes: number[] };
    expect(body.error).toBe('invalid_client');
    expect(body.error_codes).toEqual([7000215]);
    expect(body.error_description).toMatch(/^AADSTS7000215: Invalid client secret provided/);
  });

  it.each([
    ['an unknown app', { client_id: 'someone-else' }, APP.tenantId, 'unauthorized_client'],
    ['a foreign scope', { scope: 'https://management.azure.com/.default' }, APP.tenantId, 'invalid_scope'],
    ['another grant', { grant_type: 'password' }, APP.tenantId, 'unsupported_grant_type'],
    ['an unknown tenant', {}, 'nowhere-tenant', 'invalid_request'],
  ])('refuses %s with 400', async (_what, change, tenant, error) => {
    const res = await askToken({ ...grant(GRAPH_SCOPE), ...change }, tenant);
    expect(res.status).toBe(400);
    expect(((await res.json()) as { error: string }).error).toBe(error);
  });

  it('throttles with 429 and Retry-After beyond its requests per second', async () => {
    const strict = await startFakeTeamsTokenEndpoint({ ...APP, requestsPerSecond: 1 });
    try {
      const ask = () =>
        fetch(strict.tokenUrl(), { method: 'POST', body: new URLSearchParams(grant(GRAPH_SCOPE)) });
      expect((await ask()).status).toBe(200);
      const second = await ask();
      expect(second.status).toBe(429);
      expect(Number(second.headers.get('retry-after'))).toBeGreaterThan(0);
    } finally {
      await strict.close();
    }
    tokens.throttle.throttleNext(1, 7);
    const res = await askToken(grant(GRAPH_SCOPE));
    expect(res.status).toBe(429);
    expect(res.headers.get('retry-after')).toBe('7');
  });
});

describe('fake Bot Connector', () => {
  const call = async (method: string, path: string, body: unknown, token?: string) =>
    fetch(`${connector.serviceUrl}${path}`, {
      method,
      headers: { 'content-type': 'application/json', ...(token ? { authorization: `Bearer ${token}` } : {}) },
      body: JSON.stringify(body),
    });
  const card = (title: string) => ({
    type: 'message',
    attachments: [
      {
        contentType: 'application/vnd.microsoft.card.adaptive',
        content: { type: 'AdaptiveCard', body: [{ type: 'TextBlock', text: title }] },
      },
    ],
  });

  it('refuses calls without a Bot Framework token (a Graph token does not do)', async () => {
    expect((await call('POST', 'v3/conversations', {})).status).toBe(401);
    const graphToken = await tokenFor(GRAPH_SCOPE);
    expect((await call('POST', 'v3/conversations', {}, graphToken)).status).toBe(401);
  });

  it('opens one DM per person, posts, and updates a card in place', async () => {
    const token = await tokenFor(BOT_FRAMEWORK_SCOPE);
    const dm = {
      bot: { id: `28:${APP.appId}` },
      members: [{ id: '29:alice' }],
      channelData: { tenant: { id: APP.tenantId } },
    };
    const opened = await call('POST', 'v3/conversations', dm, token);
    expect(opened.status).toBe(201);
    const { id } = (await opened.json()) as { id: string };
    const again = (await (await call('POST', 'v3/conversations', dm, token)).json()) as { id: string };
    expect(again.id).toBe(id);

    const posted = await call(
      'POST',
      `v3/conversations/${encodeURIComponent(id)}/activities`,
      card('Triggered'),
      token,
    );
    expect(posted.status).toBe(201);
    const { id: activityId } = (await posted.json()) as { id: string };
    const updated = await call(
      'PUT',
      `v3/conversations/${encodeURIComponent(id)}/activities/${activityId}`,
      card('Acknowledged'),
      token,
    );
    expect(updated.status).toBe(200);
    expect(connector.activities.get(activityId)?.versions).toHaveLength(2);
    expect(JSON.stringify(connector.activities.get(activityId)?.attachments)).toContain('Acknowledged');
  });

  it('refuses a DM without the tenant, an unknown conversation or activity, and an empty message', async () => {
    const token = await tokenFor(BOT_FRAMEWORK_SCOPE);
    const noTenant = await call('POST', 'v3/conversations', { members: [{ id: '29:bob' }] }, token);
    expect(noTenant.status).toBe(400);
    expect((await call('POST', 'v3/conversations/a%3Anope/activities', card('x'), token)).status).toBe(404);
    const channel = await call(
      'POST',
      'v3/conversations',
      { isGroup: true, channelData: { channel: { id: '19:abc@thread.tacv2' } }, activity: card('Opened') },
      token,
    );
    expect(channel.status).toBe(201);
    const { id, activityId } = (await channel.json()) as { id: string; activityId: string };
    expect(activityId).toBeTruthy();
    const path = `v3/conversations/${encodeURIComponent(id)}/activities`;
    expect((await call('PUT', `${path}/does-not-exist`, card('x'), token)).status).toBe(404);
    expect((await call('POST', path, { type: 'message' }, token)).status).toBe(400);
  });

  it('refuses a message over 28 KB with 413 MessageSizeTooBig', async () => {
    const token = await tokenFor(BOT_FRAMEWORK_SCOPE);
    const dm = { members: [{ id: '29:big' }], channelData: { tenant: { id: APP.tenantId } } };
    const { id } = (await (await call('POST', 'v3/conversations', dm, token)).json()) as { id: string };
    const res = await call(
      'POST',
      `v3/conversations/${encodeURIComponent(id)}/activities`,
      { type: 'message', text: 'x'.repeat(29 * 1024) },
      token,
    );
    expect(res.status).toBe(413);
    expect(((await res.json()) as { error: { code: string } }).error.code).toBe('MessageSizeTooBig');
  });

  it('answers 429 with Retry-After beyond 7 messages a second in one conversation', async () => {
    const token = await tokenFor(BOT_FRAMEWORK_SCOPE);
    const dm = { members: [{ id: '29:busy' }], channelData: { tenant: { id: APP.tenantId } } };
    const { id } = (await (await call('POST', 'v3/conversations', dm, token)).json()) as { id: string };
    const statuses: number[] = [];
    let retryAfter: string | null = null;
    for (let i = 0; i < 8; i++) {
      const res = await call(
        'POST',
        `v3/conversations/${encodeURIComponent(id)}/activities`,
        { type: 'message', text: `m${i}` },
        token,
      );
      statuses.push(res.status);
      if (res.status === 429) retryAfter = res.headers.get('retry-after');
    }
    expect(statuses.slice(0, 7)).toEqual(Array(7).fill(201));
    expect(statuses[7]).toBe(429);
    expect(Number(retryAfter)).toBeGreaterThan(0);
  });
});

describe('fake Microsoft Graph', () => {
  const call = async (method: string, path: string, body?: unknown, token?: string) =>
    fetch(`${graph.origin}/v1.0/${path}`, {
      method,
      headers: { 'content-type': 'application/json', ...(token ? { authorization: `Bearer ${token}` } : {}) },
      ...(body === undefined ? {} : { body: JSON.stringify(body) }),
    });
  const codeOf = async (res: Response) => ((await res.json()) as { error: { code: string } }).error.code;

  it('needs a Graph token', async () => {
    const res = await call('GET', 'users/aad-alice');
    expect(res.status).toBe(401);
    expect(await codeOf(res)).toBe('InvalidAuthenticationToken');
    const botToken = await tokenFor(BOT_FRAMEWORK_SCOPE);
    expect((await call('GET', 'users/aad-alice', undefined, botToken)).status).toBe(401);
  });

  it('creates a channel, refuses its name twice (any case), and renames it', async () => {
    const token = await tokenFor(GRAPH_SCOPE);
    const created = await call(
      'POST',
      `teams/${TEAM}/channels`,
      { displayName: 'inc-42-database-down' },
      token,
    );
    expect(created.status).toBe(201);
    const { id } = (await created.json()) as { id: string };
    expect(id).toMatch(/^19:.+@thread\.tacv2$/);
    const twice = await call(
      'POST',
      `teams/${TEAM}/channels`,
      { displayName: 'INC-42-Database-Down' },
      token,
    );
    expect(twice.status).toBe(409);
    expect(await codeOf(twice)).toBe('NameAlreadyExists');

    const renamed = await call(
      'PATCH',
      `teams/${TEAM}/channels/${encodeURIComponent(id)}`,
      { displayName: '[RESOLVED] inc-42-database-down' },
      token,
    );
    expect(renamed.status).toBe(204);
    expect(graph.channels.get(id)?.names).toEqual([
      'inc-42-database-down',
      '[RESOLVED] inc-42-database-down',
    ]);
  });

  it.each([
    ['over 50 characters', 'x'.repeat(51)],
    ...[...'~#%&*{}+/\\:<>?|\'"'].map((ch) => [`with ${ch}`, `inc-1 ${ch} name`]),
    ['starting with _', '_inc-1'],
    ['starting with .', '.inc-1'],
    ['empty', ''],
  ])('refuses a channel name %s', async (_what, displayName) => {
    const token = await tokenFor(GRAPH_SCOPE);
    const res = await call('POST', `teams/${TEAM}/channels`, { displayName }, token);
    expect(res.status).toBe(400);
    expect(graph.channelsOf().some((c) => c.displayName === displayName)).toBe(false);
  });

  it('takes exactly 50 characters, and refuses a rename into a taken or invalid name', async () => {
    const token = await tokenFor(GRAPH_SCOPE);
    const fifty = `inc-7-${'y'.repeat(44)}`;
    const res = await call('POST', `teams/${TEAM}/channels`, { displayName: fifty }, token);
    expect(res.status).toBe(201);
    const { id } = (await res.json()) as { id: string };
    await call('POST', `teams/${TEAM}/channels`, { displayName: 'inc-8-other' }, token);
    const path = `teams/${TEAM}/channels/${encodeURIComponent(id)}`;
    expect((await call('PATCH', path, { displayName: 'inc-8-other' }, token)).status).toBe(409);
    expect((await call('PATCH', path, { displayName: 'a/b' }, token)).status).toBe(400);
    expect(
      (await call('PATCH', `teams/${TEAM}/channels/19%3Anope`, { displayName: 'ok' }, token)).status,
    ).toBe(404);
    expect(graph.channels.get(id)?.displayName).toBe(fifty);
  });

  it('finds users by id or userPrincipalName, and says 404 for nobody', async () => {
    const token = await tokenFor(GRAPH_SCOPE);
    const byId = (await (await call('GET', 'users/aad-alice', undefined, token)).json()) as { mail: string };
    expect(byId.mail).toBe('alice@contoso.example');
    const byUpn = (await (await call('GET', 'users/ALICE%40contoso.example', undefined, token)).json()) as {
      id: string;
    };
    expect(byUpn.id).toBe('aad-alice');
    const nobody = await call('GET', 'users/nobody%40contoso.example', undefined, token);
    expect(nobody.status).toBe(404);
    expect(await codeOf(nobody)).toBe('Request_ResourceNotFound');
  });

  it('adds members to a private channel only, once, and only people who exist', async () => {
    const token = await tokenFor(GRAPH_SCOPE);
    const member = (ref: string) => ({
      '@odata.type': '#microsoft.graph.aadUserConversationMember',
      roles: [],
      'user@odata.bind': `https://graph.microsoft.com/v1.0/users('${ref}')`,
    });
    const standard = (await (
      await call('POST', `teams/${TEAM}/channels`, { displayName: 'inc-9-std' }, token)
    ).json()) as { id: string };
    expect(
      (
        await call(
          'POST',
          `teams/${TEAM}/channels/${encodeURIComponent(standard.id)}/members`,
          member('aad-alice'),
          token,
        )
      ).status,
    ).toBe(400);

    const noOwner = await call(
      'POST',
      `teams/${TEAM}/channels`,
      { displayName: 'inc-9-priv', membershipType: 'private' },
      token,
    );
    expect(noOwner.status).toBe(400);
    const priv = (await (
      await call(
        'POST',
        `teams/${TEAM}/channels`,
        {
          displayName: 'inc-9-priv',
          membershipType: 'private',
          members: [{ ...member('aad-alice'), roles: ['owner'] }],
        },
        token,
      )
    ).json()) as { id: string };
    const path = `teams/${TEAM}/channels/${encodeURIComponent(priv.id)}/members`;
    expect((await call('POST', path, member('aad-alice'), token)).status).toBe(201);
    expect((await call('POST', path, member('aad-alice'), token)).status).toBe(409);
    expect((await call('POST', path, member('ghost'), token)).status).toBe(404);
    expect(graph.channels.get(priv.id)?.members).toEqual(['aad-alice']);
  });

  it('answers 429 beyond its requests per second', async () => {
    const token = await tokenFor(GRAPH_SCOPE);
    const strict = await startFakeGraph({ tokens, teamId: TEAM, requestsPerSecond: 2 });
    try {
      const statuses = [];
      for (let i = 0; i < 3; i++)
        statuses.push(
          (await fetch(`${strict.origin}/v1.0/users/x`, { headers: { authorization: `Bearer ${token}` } }))
            .status,
        );
      expect(statuses).toEqual([404, 404, 429]);
    } finally {
      await strict.close();
    }
  });

  it('throttles with 429 TooManyRequests and Retry-After', async () => {
    const token = await tokenFor(GRAPH_SCOPE);
    graph.throttle.throttleNext(1, 3);
    const res = await call('GET', 'users/aad-alice', undefined, token);
    expect(res.status).toBe(429);
    expect(res.headers.get('retry-after')).toBe('3');
    expect(await codeOf(res)).toBe('TooManyRequests');
    expect((await call('GET', 'users/aad-alice', undefined, token)).status).toBe(200);
  });
});
