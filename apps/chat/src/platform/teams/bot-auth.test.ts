import { type FakeBotFrameworkAuth, startFakeBotFrameworkAuth } from '@firebreak/testing';
import { afterAll, afterEach, beforeAll, describe, expect, it, vi } from 'vitest';
import { type ActivityClaims, createBotAuthVerifier } from './bot-auth';

const APP_ID = '6f1c2a3b-0000-4000-8000-00000000b07a';
const SERVICE_URL = 'https://smba.trafficmanager.net/emea/';
const activity: ActivityClaims = { channelId: 'msteams', serviceUrl: SERVICE_URL };

let issuer: FakeBotFrameworkAuth;
beforeAll(async () => {
  issuer = await startFakeBotFrameworkAuth();
});
afterAll(() => issuer.close());

const nowS = () => Math.floor(Date.now() / 1000);
const verifier = (now?: () => Date) =>
  createBotAuthVerifier({ appId: APP_ID, metadataUrl: issuer.metadataUrl, ...(now ? { now } : {}) });
const good = (claims: Record<string, unknown> = {}) =>
  `Bearer ${issuer.sign({ aud: APP_ID, serviceUrl: SERVICE_URL, ...claims })}`;

describe('Bot Framework inbound authentication', () => {
  it('accepts a token the Bot Connector signed for this bot', async () => {
    const result = await verifier().verify(good(), activity);
    expect(result).toMatchObject({ ok: true, claims: { aud: APP_ID, serviceUrl: SERVICE_URL } });
  });

  it.each([
    ['no header', undefined, 'missing_token'],
    ['not a bearer token', 'Basic abc', 'missing_token'],
    ['garbage', 'Bearer not.a.jwt', 'malformed_token'],
  ])('refuses %s', async (_what, header, refusal) => {
    expect(await verifier().verify(header, activity)).toEqual({ ok: false, refusal });
  });

  it('refuses a token signed by a key the issuer never published', async () => {
    const token = issuer.sign({ aud: APP_ID, serviceUrl: SERVICE_URL }, { unpublishedKey: true });
    expect(await verifier().verify(`Bearer ${token}`, activity)).toEqual({
      ok: false,
      refusal: 'unknown_key',
    });
  });

  it('refuses a signature that does not match the token', async () => {
    const [header, , signature] = issuer.sign({ aud: APP_ID, serviceUrl: SERVICE_URL }).split('.');
    const otherBody = issuer.sign({ aud: APP_ID, serviceUrl: SERVICE_URL, extra: 'x' }).split('.')[1];
    const result = await verifier().verify(`Bearer ${header}.${otherBody}.${signature}`, activity);
    expect(result).toEqual({ ok: false, refusal: 'bad_signature' });
  });

  it('refuses alg none and any algorithm but RS256', async () => {
    const none = issuer.sign({ aud: APP_ID, serviceUrl: SERVICE_URL }, { alg: 'none' });
    expect(await verifier().verify(`Bearer ${none}`, activity)).toEqual({
      ok: false,
      refusal: 'malformed_token',
    });
    const hs = issuer.sign({ aud: APP_ID, serviceUrl: SERVICE_URL }, { alg: 'HS256' });
    expect(await verifier().verify(`Bearer ${hs}`, activity)).toMatchObject({ ok: false });
  });

  it('refuses another issuer and another audience', async () => {
    expect(await verifier().verify(good({ iss: 'https://sts.windows.net/evil/' }), activity)).toEqual({
      ok: false,
      refusal: 'wrong_issuer',
    });
    expect(await verifier().verify(good({ aud: 'some-other-bot' }), activity)).toEqual({
      ok: false,
      refusal: 'wrong_audience',
    });
  });

  it('allows 5 minutes of clock skew either way, and no more', async () => {
    const t = nowS();
    const expiredJustNow = good({ nbf: t - 3600, exp: t - 240 });
    expect(await verifier().verify(expiredJustNow, activity)).toMatchObject({ ok: true });
    expect(await verifier().verify(good({ nbf: t - 3600, exp: t - 360 }), activity)).toEqual({
      ok: false,
      refusal: 'expired',
    });
    expect(await verifier().verify(good({ nbf: t + 240, exp: t + 3600 }), activity)).toMatchObject({
      ok: true,
    });
    expect(await verifier().verify(good({ nbf: t + 360, exp: t + 3600 }), activity)).toEqual({
      ok: false,
      refusal: 'not_yet_valid',
    });
  });

  it('refuses an activity from a channel the signing key does not endorse', async () => {
    expect(await verifier().verify(good(), { ...activity, channelId: 'slack' })).toEqual({
      ok: false,
      refusal: 'channel_not_endorsed',
    });
  });

  it('refuses an activity that names no channel, whatever the key endorses', async () => {
    expect(await verifier().verify(good(), { ...activity, channelId: undefined })).toEqual({
      ok: false,
      refusal: 'channel_not_endorsed',
    });
    expect(await verifier().verify(good(), { ...activity, channelId: '' })).toEqual({
      ok: false,
      refusal: 'channel_not_endorsed',
    });
  });

  it('refuses an activity without a serviceUrl, and a token without one for an activity without one', async () => {
    expect(await verifier().verify(good(), { ...activity, serviceUrl: undefined })).toEqual({
      ok: false,
      refusal: 'service_url_mismatch',
    });
    const neither = await verifier().verify(good({ serviceUrl: undefined }), {
      ...activity,
      serviceUrl: undefined,
    });
    expect(neither).toEqual({ ok: false, refusal: 'service_url_mismatch' });
  });

  it('refuses a token without exp', async () => {
    expect(await verifier().verify(good({ exp: undefined }), activity)).toEqual({
      ok: false,
      refusal: 'malformed_token',
    });
  });

  it('needs the bot’s app id', () => {
    expect(() => createBotAuthVerifier({ appId: '' })).toThrow(/app id/);
    expect(() => createBotAuthVerifier({ appId: '  ' })).toThrow(/app id/);
  });

  it('refuses a token whose serviceUrl is not the activity’s', async () => {
    const elsewhere = { ...activity, serviceUrl: 'https://attacker.example/' };
    expect(await verifier().verify(good(), elsewhere)).toEqual({
      ok: false,
      refusal: 'service_url_mismatch',
    });
    expect(await verifier().verify(good({ serviceUrl: undefined }), activity)).toEqual({
      ok: false,
      refusal: 'service_url_mismatch',
    });
  });

  it('caches the keys, fetches again for a new key id, and at most once a minute for unknown ones', async () => {
    let now = Date.now();
    const v = verifier(() => new Date(now));
    const keySets = () => issuer.requestsTo('/v1/.well-known/keys');
    await v.verify(good(), activity);
    const first = keySets();
    await v.verify(good(), activity);
    expect(keySets()).toBe(first);

    // Rotation: a token from the new key is accepted after one refresh (the cooldown has passed).
    now += 61_000;
    const kid = issuer.rotateKeys();
    const rotated = `Bearer ${issuer.sign({ aud: APP_ID, serviceUrl: SERVICE_URL }, { kid })}`;
    expect(await v.verify(rotated, activity)).toMatchObject({ ok: true });
    expect(keySets()).toBe(first + 1);

    // Forged key ids within the minute: no more fetches.
    for (let i = 0; i < 5; i++) {
      const forged = issuer.sign({ aud: APP_ID, serviceUrl: SERVICE_URL }, { unpublishedKey: true });
      expect(await v.verify(`Bearer ${forged}`, activity)).toEqual({ ok: false, refusal: 'unknown_key' });
    }
    expect(keySets()).toBe(first + 1);

    // A day later the set is fetched again even for known keys.
    now += 24 * 60 * 60 * 1000 + 1;
    await v.verify(rotated, activity);
    expect(keySets()).toBe(first + 2);
  });

  it('says keys_unavailable when the metadata cannot be fetched, on later requests too', async () => {
    const v = createBotAuthVerifier({ appId: APP_ID, metadataUrl: 'http://127.0.0.1:9/openid' });
    expect(await v.verify(good(), activity)).toEqual({ ok: false, refusal: 'keys_unavailable' });
    // Within the cooldown nothing is fetched again, and the answer stays the issuer's fault.
    expect(await v.verify(good(), activity)).toEqual({ ok: false, refusal: 'keys_unavailable' });
  });

  it('accepts requests that arrive while the first key fetch is under way', async () => {
    const v = verifier();
    const results = await Promise.all([1, 2, 3].map(() => v.verify(good(), activity)));
    expect(results).toEqual([1, 2, 3].map(() => expect.objectContaining({ ok: true })));
  });
});

describe('fetching the key set', () => {
  // The issuer's documents, served from memory by a stand-in `fetch` that answers after `delays`
  // (fake timers), or with a body of its own.
  let documents: { metadata: Record<string, unknown>; keys: { keys: unknown[] } };
  beforeAll(async () => {
    const metadata = (await (await fetch(issuer.metadataUrl)).json()) as Record<string, unknown>;
    const keys = (await (await fetch(String(metadata.jwks_uri))).json()) as { keys: unknown[] };
    documents = { metadata, keys };
  });
  afterEach(() => {
    vi.useRealTimers();
  });

  const slowFetch =
    (delays: { metadata: number; keys: number }, keysBody?: string): typeof fetch =>
    (input, init) => {
      const url = String(input);
      const isKeys = url.endsWith('/keys');
      const body = isKeys ? (keysBody ?? JSON.stringify(documents.keys)) : JSON.stringify(documents.metadata);
      return new Promise((resolve, reject) => {
        const signal = init?.signal;
        const timer = setTimeout(
          () => resolve(new Response(body, { headers: { 'content-type': 'application/json' } })),
          isKeys ? delays.keys : delays.metadata,
        );
        signal?.addEventListener('abort', () => {
          clearTimeout(timer);
          reject(signal.reason);
        });
      });
    };
  const withFetch = (f: typeof fetch) =>
    createBotAuthVerifier({ appId: APP_ID, metadataUrl: issuer.metadataUrl, fetch: f });

  it('gives the metadata and the key set one 5-second deadline together', async () => {
    const token = good();
    vi.useFakeTimers({ toFake: ['setTimeout', 'clearTimeout'] });
    const inTime = withFetch(slowFetch({ metadata: 2000, keys: 2500 })).verify(token, activity);
    await vi.advanceTimersByTimeAsync(4600);
    expect(await inTime).toMatchObject({ ok: true });
    // Each answer within 5 seconds, both together not.
    const late = withFetch(slowFetch({ metadata: 3000, keys: 3000 })).verify(token, activity);
    await vi.advanceTimersByTimeAsync(6100);
    expect(await late).toEqual({ ok: false, refusal: 'keys_unavailable' });
  });

  it('refuses a key set larger than any the issuer publishes', async () => {
    const padded = JSON.stringify({ ...documents.keys, padding: 'x'.repeat(1024 * 1024) });
    const v = withFetch(slowFetch({ metadata: 0, keys: 0 }, padded));
    expect(await v.verify(good(), activity)).toEqual({ ok: false, refusal: 'keys_unavailable' });
    // The same keys, unpadded, are accepted: the size is what was refused.
    const plain = withFetch(slowFetch({ metadata: 0, keys: 0 }));
    expect(await plain.verify(good(), activity)).toMatchObject({ ok: true });
  });
});
