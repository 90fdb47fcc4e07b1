import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { type Config, loadConfig } from '@firebreak/config';
import { createTestRuntime, type TestRuntime } from '@firebreak/runtime/testing';
import { bootstrapAdmin, hashPassword } from '@firebreak/services';
import { bodyOf } from '@firebreak/testing';
import Provider from 'oidc-provider';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { createApp } from './app';

// A real OpenID provider (oidc-provider) on a free port. Its login and consent pages are replaced by a
// handler that signs in `nextAccount` at once, as a person clicking through would.
const PUBLIC_URL = 'http://firebreak.test';
const CLIENT_ID = 'firebreak';
const CLIENT_SECRET = 'a-client-secret-for-tests';
const BREAK_GLASS = { email: 'root@example.test', password: 'break-glass-password' };

const accounts: Record<string, Record<string, unknown>> = {};
let nextAccount = '';
let provider: Provider;
let issuer: string;
let wrongIssuerUrl: string;
const servers: Server[] = [];
let runtime: TestRuntime;

async function listen(handler: (req: IncomingMessage, res: ServerResponse) => void): Promise<string> {
  const server = createServer(handler);
  servers.push(server);
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
}

async function finishInteraction(req: IncomingMessage, res: ServerResponse): Promise<void> {
  const details = await provider.interactionDetails(req, res);
  const grant = new provider.Grant({ accountId: nextAccount, clientId: String(details.params.client_id) });
  grant.addOIDCScope(String(details.params.scope));
  const grantId = await grant.save();
  await provider.interactionFinished(
    req,
    res,
    { login: { accountId: nextAccount }, consent: { grantId } },
    { mergeWithLastSubmission: false },
  );
}

beforeAll(async () => {
  let callback: ReturnType<Provider['callback']>;
  issuer = await listen((req, res) => {
    if (req.url?.startsWith('/interaction/')) {
      finishInteraction(req, res).catch((error) => {
        res.statusCode = 500;
        res.end(String(error));
      });
    } else callback(req, res);
  });
  provider = new Provider(issuer, {
    clients: [
      {
        client_id: CLIENT_ID,
        client_secret: CLIENT_SECRET,
        redirect_uris: [`${PUBLIC_URL}/api/v1/auth/oidc/callback`],
      },
    ],
    claims: { openid: ['sub'], email: ['email', 'email_verified'], profile: ['name'], groups: ['groups'] },
    conformIdTokenClaims: false,
    findAccount: (_ctx, id) => ({ accountId: id, claims: () => ({ sub: id, ...accounts[id] }) }),
    interactions: { url: (_ctx, interaction) => `/interaction/${interaction.uid}` },
    features: { devInteractions: { enabled: false } },
    ttl: { IdToken: 60 },
    cookies: { keys: ['cookie-key-for-tests'] },
  });
  callback = provider.callback();

  // The same provider behind a discovery document that names another issuer: its ID tokens then
  // carry an issuer that is not the configured one.
  wrongIssuerUrl = await listen((req, res) => {
    fetch(`${issuer}${req.url}`)
      .then(async (upstream) => {
        const metadata = (await upstream.json()) as Record<string, unknown>;
        res.setHeader('content-type', 'application/json');
        res.end(JSON.stringify({ ...metadata, issuer: wrongIssuerUrl }));
      })
      .catch(() => res.writeHead(502).end());
  });

  runtime = await createTestRuntime({
    env: {
      PUBLIC_URL,
      OIDC_ISSUER_URL: issuer,
      OIDC_CLIENT_ID: CLIENT_ID,
      OIDC_CLIENT_SECRET: CLIENT_SECRET,
      OIDC_SCOPES: 'openid email profile groups',
      OIDC_GROUPS_CLAIM: 'groups',
      OIDC_ADMIN_GROUPS: 'fb-admins, ops-leads',
      OIDC_VIEWER_GROUPS: 'fb-viewers',
    },
  });
  // The first start's admin, made before anyone else: the break-glass account.
  await bootstrapAdmin(runtime.ctx, BREAK_GLASS);
});

afterAll(async () => {
  await runtime.cleanup();
  for (const server of servers) server.close();
});

const realNow = () => new Date();
afterEach(() => {
  runtime.ctx.now = realNow;
});

function appWith(overrides: Partial<Config> = {}) {
  return createApp({ ctx: runtime.ctx, ready: runtime.ready, config: { ...runtime.config, ...overrides } });
}
type App = ReturnType<typeof appWith>;

function cookieValue(res: Response, name: string): string | undefined {
  for (const cookie of res.headers.getSetCookie()) {
    const [pair] = cookie.split(';');
    if (pair?.startsWith(`${name}=`)) return pair.slice(name.length + 1);
  }
  return undefined;
}

let accountCounter = 0;
function addAccount(claims: Record<string, unknown> = {}): { id: string; email: string } {
  accountCounter += 1;
  const id = `subject-${accountCounter}`;
  const email = `person-${accountCounter}-${Date.now()}@example.test`;
  accounts[id] = { email, email_verified: true, name: `Person ${accountCounter}`, ...claims };
  return { id, email: String(accounts[id]!.email) };
}

/** The browser's part at the provider: follows its redirects until it sends us back to Firebreak. */
async function signInAtProvider(authorizationUrl: string, accountId: string): Promise<URL> {
  nextAccount = accountId;
  const jar = new Map<string, string>();
  let url = authorizationUrl;
  for (let hop = 0; hop < 10; hop += 1) {
    const cookie = [...jar].map(([name, value]) => `${name}=${value}`).join('; ');
    const res = await fetch(url, { redirect: 'manual', headers: { cookie } });
    for (const set of res.headers.getSetCookie()) {
      const [pair = ''] = set.split(';');
      const at = pair.indexOf('=');
      const value = pair.slice(at + 1);
      if (value) jar.set(pair.slice(0, at), value);
      else jar.delete(pair.slice(0, at));
    }
    const location = res.headers.get('location');
    if (!location) throw new Error(`the provider answered ${res.status}: ${await res.text()}`);
    const next = new URL(location, url);
    if (next.href.startsWith(PUBLIC_URL)) return next;
    url = next.href;
  }
  throw new Error('too many redirects at the provider');
}

async function startSignIn(app: App): Promise<{ authorizationUrl: string; stateCookie: string }> {
  const res = await app.request('/api/v1/auth/oidc/login');
  expect(res.status).toBe(302);
  const setCookie = res.headers.getSetCookie().join('\n');
  expect(setCookie).toMatch(/firebreak_oidc_state=[^;]+;.*HttpOnly/i);
  return {
    authorizationUrl: res.headers.get('location')!,
    stateCookie: cookieValue(res, 'firebreak_oidc_state')!,
  };
}

async function callback(app: App, url: URL, stateCookie: string): Promise<Response> {
  return await app.request(`${url.pathname}${url.search}`, {
    headers: { cookie: `firebreak_oidc_state=${stateCookie}` },
  });
}

/** A whole sign-in; the callback's answer. */
async function signIn(app: App, accountId: string): Promise<Response> {
  const { authorizationUrl, stateCookie } = await startSignIn(app);
  return callback(app, await signInAtProvider(authorizationUrl, accountId), stateCookie);
}

async function me(res: Response) {
  const token = cookieValue(res, 'firebreak_session');
  expect(token).toMatch(/^fbs_/);
  return bodyOf(
    await appWith().request('/api/v1/auth/me', { headers: { authorization: `Bearer ${token}` } }),
  );
}

const refusals = () => runtime.logs.lines.filter((line) => line.msg === 'sso sign-in refused');

describe('single sign-on', () => {
  it('tells the login page that SSO is on and password login allowed', async () => {
    const res = await appWith().request('/api/v1/auth/config');
    expect(res.status).toBe(200);
    expect(await bodyOf(res)).toEqual({
      sso_enabled: true,
      sso_login_url: '/api/v1/auth/oidc/login',
      password_login: true,
    });
    const off = await appWith({ oidc: undefined }).request('/api/v1/auth/config');
    expect(await bodyOf(off)).toMatchObject({ sso_enabled: false, sso_login_url: null });
    expect((await appWith({ oidc: undefined }).request('/api/v1/auth/oidc/login')).status).toBe(404);
  });

  it('sends the browser to the provider with state, nonce and an S256 PKCE challenge', async () => {
    const { authorizationUrl, stateCookie } = await startSignIn(appWith());
    const url = new URL(authorizationUrl);
    expect(url.origin).toBe(issuer);
    expect(url.searchParams.get('state')).toBe(stateCookie);
    expect(url.searchParams.get('nonce')).toBeTruthy();
    expect(url.searchParams.get('code_challenge_method')).toBe('S256');
    expect(url.searchParams.get('redirect_uri')).toBe(`${PUBLIC_URL}/api/v1/auth/oidc/callback`);
  });

  it('creates the user on the first sign-in with the default role and opens a session', async () => {
    const account = addAccount();
    const res = await signIn(appWith(), account.id);
    expect(res.status).toBe(302);
    expect(res.headers.get('location')).toBe(`${PUBLIC_URL}/`);
    expect(res.headers.getSetCookie().join('\n')).toMatch(/firebreak_session=fbs_[^;]+;.*HttpOnly/i);
    const who = await me(res);
    expect(who).toMatchObject({
      kind: 'session',
      role: 'member',
      user: { name: expect.stringMatching(/^Person/) },
    });
    const [user] = await runtime.sql`select * from users where email = ${account.email}`;
    expect(user).toMatchObject({ role: 'member', auth_source: 'oidc', password_hash: null });

    // The second sign-in finds the same user.
    const again = await signIn(appWith(), account.id);
    expect(again.status).toBe(302);
    expect((await me(again)).user.id).toBe(user!.id);
  });

  it('maps groups to roles, the highest winning, and follows group changes at the next sign-in', async () => {
    const admin = addAccount({ groups: ['fb-viewers', 'ops-leads'] });
    expect((await me(await signIn(appWith(), admin.id))).role).toBe('admin');
    const viewer = addAccount({ groups: ['fb-viewers'] });
    expect((await me(await signIn(appWith(), viewer.id))).role).toBe('viewer');
    accounts[viewer.id]!.groups = ['fb-admins'];
    expect((await me(await signIn(appWith(), viewer.id))).role).toBe('admin');
  });

  it('with OIDC_DEFAULT_ROLE=none refuses people in none of the groups, creating no user', async () => {
    const app = appWith({ oidc: { ...runtime.config.oidc!, defaultRole: 'none' } });
    const outsider = addAccount({ groups: ['marketing'] });
    const res = await signIn(app, outsider.id);
    expect(res.status).toBe(401);
    expect((await bodyOf(res)).error.code).toBe('unauthorized');
    expect(await runtime.sql`select 1 from users where email = ${outsider.email}`).toHaveLength(0);
  });

  it('links an existing user without a password by verified e-mail, and refuses an unverified one', async () => {
    const [existing] = await runtime.sql<{ id: string }[]>`
      insert into users (email, name, role, auth_source)
      values ('existing@example.test', 'Existing', 'viewer', 'chat')
      returning id`;
    const unverified = addAccount({ email: 'existing@example.test', email_verified: false });
    expect((await signIn(appWith(), unverified.id)).status).toBe(401);
    expect(await runtime.sql`select 1 from oidc_identities where user_id = ${existing!.id}`).toHaveLength(0);

    const verified = addAccount({ email: 'EXISTING@example.test' });
    const res = await signIn(appWith(), verified.id);
    expect(res.status).toBe(302);
    // A user who was not made by SSO keeps the role given in Firebreak.
    expect(await me(res)).toMatchObject({ role: 'viewer', user: { id: existing!.id } });
  });

  it('never links a user who has a password, nor the break-glass admin', async () => {
    const [local] = await runtime.sql<{ id: string }[]>`
      insert into users (email, name, role, password_hash)
      values ('has-password@example.test', 'Local', 'admin', ${await hashPassword('local-pass')})
      returning id`;
    const res = await signIn(appWith(), addAccount({ email: 'has-password@example.test' }).id);
    expect(res.status).toBe(401);
    expect((await bodyOf(res)).error.message).toMatch(/remove the password/);
    expect(refusals().at(-1)?.reason).toBe('e-mail of a user with a password');
    expect(await runtime.sql`select 1 from oidc_identities where user_id = ${local!.id}`).toHaveLength(0);

    // Even without a password the break-glass admin is not taken over through the provider.
    await runtime.sql`update users set password_hash = null where email = ${BREAK_GLASS.email}`;
    try {
      const glass = await signIn(appWith(), addAccount({ email: BREAK_GLASS.email }).id);
      expect(glass.status).toBe(401);
      expect(refusals().at(-1)?.reason).toBe('e-mail of the break-glass admin');
    } finally {
      await runtime.sql`
        update users set password_hash = ${await hashPassword(BREAK_GLASS.password)}
        where email = ${BREAK_GLASS.email}`;
    }
  });

  it('with OIDC_DEFAULT_ROLE=none refuses an existing local or chat user in no group too', async () => {
    const app = appWith({ oidc: { ...runtime.config.oidc!, defaultRole: 'none' } });
    await runtime.sql`
      insert into users (email, name, role, auth_source)
      values ('chat-person@example.test', 'Chat Person', 'member', 'chat')`;
    const res = await signIn(app, addAccount({ email: 'chat-person@example.test', groups: ['x'] }).id);
    expect(res.status).toBe(401);
    expect(refusals().at(-1)?.reason).toBe('in no mapped group');
  });

  it('records SSO user creation and group-driven role changes in the audit log', async () => {
    const account = addAccount({ groups: ['fb-viewers'] });
    expect((await signIn(appWith(), account.id)).status).toBe(302);
    accounts[account.id]!.groups = ['fb-admins'];
    expect((await signIn(appWith(), account.id)).status).toBe(302);
    const [user] = await runtime.sql<{ id: string }[]>`select id from users where email = ${account.email}`;
    const rows = await runtime.sql`
      select actor_type, actor_name, action, before->>'role' as before_role, after->>'role' as after_role
      from audit_log where entity_id = ${user!.id} order by seq`;
    expect(rows).toEqual([
      { actor_type: 'system', actor_name: 'sso', action: 'create', before_role: null, after_role: 'viewer' },
      {
        actor_type: 'system',
        actor_name: 'sso',
        action: 'update',
        before_role: 'viewer',
        after_role: 'admin',
      },
    ]);
  });

  it('refuses a deactivated user', async () => {
    const account = addAccount();
    expect((await signIn(appWith(), account.id)).status).toBe(302);
    await runtime.sql`update users set active = false where email = ${account.email}`;
    const res = await signIn(appWith(), account.id);
    expect(res.status).toBe(401);
    expect((await bodyOf(res)).error.message).toBe('This user is deactivated.');
    expect(cookieValue(res, 'firebreak_session')).toBeUndefined();
  });

  it('refuses a replayed state', async () => {
    const app = appWith();
    const account = addAccount();
    const { authorizationUrl, stateCookie } = await startSignIn(app);
    const back = await signInAtProvider(authorizationUrl, account.id);
    expect((await callback(app, back, stateCookie)).status).toBe(302);
    const replay = await callback(app, back, stateCookie);
    expect(replay.status).toBe(401);
    expect((await bodyOf(replay)).error.message).toMatch(/unknown, used or expired/);
  });

  it('refuses a callback without the state cookie of the browser that started it', async () => {
    const app = appWith();
    const account = addAccount();
    const { authorizationUrl } = await startSignIn(app);
    const back = await signInAtProvider(authorizationUrl, account.id);
    const res = await callback(app, back, 'another-browsers-state');
    expect(res.status).toBe(401);
    expect(await runtime.sql`select 1 from users where email = ${account.email}`).toHaveLength(0);
  });

  it('refuses an expired ID token', async () => {
    const app = appWith();
    const account = addAccount();
    const { authorizationUrl, stateCookie } = await startSignIn(app);
    const back = await signInAtProvider(authorizationUrl, account.id);
    // The provider's ID tokens live 60 s; five minutes later (the sign-in itself lives ten) it is stale.
    runtime.ctx.now = () => new Date(Date.now() + 5 * 60_000);
    const res = await callback(app, back, stateCookie);
    expect(res.status).toBe(401);
    expect(refusals().at(-1)?.reason).toMatch(/"exp"/);
    expect(await runtime.sql`select 1 from users where email = ${account.email}`).toHaveLength(0);
  });

  it('refuses an ID token from another issuer than the configured one', async () => {
    const app = appWith({ oidc: { ...runtime.config.oidc!, issuerUrl: wrongIssuerUrl } });
    const account = addAccount();
    const { authorizationUrl, stateCookie } = await startSignIn(app);
    const back = await signInAtProvider(authorizationUrl, account.id);
    // Without the response's own `iss` parameter (RFC 9207), which would be refused first, so that it
    // is the ID token's issuer that is checked.
    back.searchParams.delete('iss');
    const res = await callback(app, back, stateCookie);
    expect(res.status).toBe(401);
    expect(refusals().at(-1)?.reason).toMatch(/"iss"/);
    expect(await runtime.sql`select 1 from users where email = ${account.email}`).toHaveLength(0);
  });

  it('answers 400 validation_failed for a callback without state or code', async () => {
    const res = await appWith().request('/api/v1/auth/oidc/callback?code=abc');
    expect(res.status).toBe(400);
    const body = await bodyOf(res);
    expect(body.error.code).toBe('validation_failed');
    expect(body.error.details.map((d: { path: string }) => d.path)).toContain('state');
  });
});

describe('PASSWORD_LOGIN=false', () => {
  const login = (app: App, email: string, password: string) =>
    app.request('/api/v1/auth/login', {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ email, password }),
    });

  it('refuses password login to everyone but the break-glass first admin', async () => {
    const app = appWith({ passwordLogin: false });
    expect(await bodyOf(await app.request('/api/v1/auth/config'))).toMatchObject({ password_login: false });
    await runtime.sql`
      insert into users (email, name, role, password_hash)
      values ('second-admin@example.test', 'Second', 'admin', ${await hashPassword('second-admin-pass')})`;
    const refused = await login(app, 'second-admin@example.test', 'second-admin-pass');
    expect(refused.status).toBe(403);
    expect((await bodyOf(refused)).error).toMatchObject({
      code: 'forbidden',
      message: expect.stringMatching(/SSO/),
    });

    const breakGlass = await login(app, BREAK_GLASS.email.toUpperCase(), BREAK_GLASS.password);
    expect(breakGlass.status).toBe(200);
    // The break-glass admin's password is still checked.
    expect((await login(app, BREAK_GLASS.email, 'wrong-password')).status).toBe(401);
    // And with password login on, the other admin logs in as before.
    expect((await login(appWith(), 'second-admin@example.test', 'second-admin-pass')).status).toBe(200);
  });

  it('gives nobody else password login once the break-glass admin is deleted', async () => {
    const app = appWith({ passwordLogin: false });
    // An admin older than every other but the break-glass one.
    await runtime.sql`
      insert into users (email, name, role, password_hash, created_at)
      values ('next-in-line@example.test', 'Next', 'admin', ${await hashPassword('next-in-line-pass')},
              '2000-01-01')`;
    const [glass] = await runtime.sql`select * from users where email = ${BREAK_GLASS.email}`;
    await runtime.sql`update users set created_at = '1999-01-01' where id = ${glass!.id}`;
    await runtime.sql`delete from users where id = ${glass!.id}`;
    try {
      expect((await login(app, 'next-in-line@example.test', 'next-in-line-pass')).status).toBe(403);
    } finally {
      await runtime.sql`insert into users ${runtime.sql(glass!)}`;
    }
  });
});

describe('configuration', () => {
  const base = { DATABASE_URL: 'postgres://x/y' };
  it('reads the SSO settings, the client secret also from a file', () => {
    const config = loadConfig({
      ...base,
      PUBLIC_URL,
      OIDC_ISSUER_URL: 'https://id.example.com/realms/ops',
      OIDC_CLIENT_ID: 'firebreak',
      OIDC_CLIENT_SECRET: 'secret',
      OIDC_GROUPS_CLAIM: 'groups',
      OIDC_ADMIN_GROUPS: 'sre, ops',
    });
    expect(config.oidc).toMatchObject({
      defaultRole: 'member',
      scopes: 'openid email profile',
      groups: { admin: ['sre', 'ops'], member: [], viewer: [] },
    });
    expect(config.passwordLogin).toBe(true);
  });

  it('reports incomplete or unsafe SSO settings', () => {
    const problems = (env: Record<string, string>) => {
      try {
        loadConfig({ ...base, ...env });
        return [];
      } catch (error) {
        return (error as { problems: string[] }).problems;
      }
    };
    expect(problems({ OIDC_ISSUER_URL: 'https://id.example.com' }).join('\n')).toMatch(
      /must be set together/,
    );
    expect(
      problems({
        PUBLIC_URL,
        OIDC_ISSUER_URL: 'http://id.example.com',
        OIDC_CLIENT_ID: 'a',
        OIDC_CLIENT_SECRET: 'b',
      }).join('\n'),
    ).toMatch(/must be https/);
    expect(problems({ PASSWORD_LOGIN: 'false' }).join('\n')).toMatch(/needs single sign-on/);
    expect(problems({ OIDC_ADMIN_GROUPS: 'x' }).join('\n')).toMatch(/OIDC_GROUPS_CLAIM/);
  });
});
