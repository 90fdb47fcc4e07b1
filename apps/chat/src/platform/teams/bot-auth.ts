import { errors, importJWK, type JWK, type JWTPayload, jwtVerify } from 'jose';

/**
 * Inbound authentication of the Bot Connector, as Microsoft's "Authenticate requests from the Bot
 * Connector service to your bot" (Bot Framework REST API docs) requires: the activity's
 * `Authorization: Bearer <JWT>` is signed (RS256) by a key of the key set that the OpenID metadata's
 * `jwks_uri` names; issued by `https://api.botframework.com`; for this bot (audience = its app id);
 * valid now, give or take 5 minutes of clock skew; signed by a key whose `endorsements` include the
 * activity's `channelId`; and carries a `serviceUrl` claim equal to the activity's `serviceUrl` (the
 * address replies go to, so a token for one conversation service cannot send our replies elsewhere).
 */

export const BOT_FRAMEWORK_METADATA_URL = 'https://login.botframework.com/v1/.well-known/openidconfiguration';
export const BOT_FRAMEWORK_ISSUER = 'https://api.botframework.com';
const CLOCK_SKEW_S = 5 * 60;
// One deadline for the metadata and the key set together: a request waiting on them is a user's
// command or click, and an issuer that answers slowly must not hold it for two full timeouts.
const KEYS_FETCH_DEADLINE_MS = 5_000;
// The metadata and key set are a few kilobytes; a larger answer is refused unread, so neither a broken
// nor a hostile endpoint can make us buffer an unbounded body.
const MAX_DOCUMENT_BYTES = 256 * 1024;
// The docs ask bots to cache the keys and fetch them again at least once every 24 hours.
const KEYS_MAX_AGE_MS = 24 * 60 * 60 * 1000;
// A token naming an unknown key refreshes the set at most this often: forged key ids must not turn
// every request into two requests of ours.
const REFRESH_COOLDOWN_MS = 60_000;
// The published set holds a handful of keys; a larger one is cut, so a key set cannot grow our memory.
const MAX_KEYS = 50;

export type BotAuthRefusal =
  | 'missing_token'
  | 'malformed_token'
  | 'unknown_key'
  | 'bad_signature'
  | 'wrong_issuer'
  | 'wrong_audience'
  | 'expired'
  | 'not_yet_valid'
  | 'channel_not_endorsed'
  | 'service_url_mismatch'
  | 'keys_unavailable';

export type BotAuthResult = { ok: true; claims: JWTPayload } | { ok: false; refusal: BotAuthRefusal };

/**
 * The parts of an incoming activity the token is checked against. Both must be given (as the activity
 * carried them): an activity without them is refused, so neither check can be skipped by leaving a
 * field out.
 */
export interface ActivityClaims {
  channelId: string | undefined;
  serviceUrl: string | undefined;
}

export interface BotAuthOptions {
  /** `TEAMS_APP_ID`: the audience every token must name. */
  appId: string;
  /** The OpenID metadata document (a fake's, in tests). */
  metadataUrl?: string;
  now?: () => Date;
  fetch?: typeof fetch;
}

interface SigningKey {
  key: Awaited<ReturnType<typeof importJWK>>;
  endorsements: readonly string[];
}

export interface BotAuthVerifier {
  verify(authorization: string | undefined, activity: ActivityClaims): Promise<BotAuthResult>;
}

export function createBotAuthVerifier(options: BotAuthOptions): BotAuthVerifier {
  // An empty audience would be a configuration mistake that jose treats as "no audience check".
  if (options.appId.trim() === '') throw new Error('Bot Framework authentication needs the bot’s app id');
  const keys = new BotSigningKeys(options);
  const now = options.now ?? (() => new Date());
  return {
    async verify(authorization, activity) {
      const token = /^Bearer (\S+)$/.exec(authorization ?? '')?.[1];
      if (!token) return refuse('missing_token');
      let endorsements: readonly string[] = [];
      let claims: JWTPayload;
      try {
        const verified = await jwtVerify(
          token,
          async (header) => {
            const found = header.kid ? await keys.find(header.kid) : undefined;
            if (!found) throw new KeyRefusal(header.kid ? 'unknown_key' : 'malformed_token');
            endorsements = found.endorsements;
            return found.key;
          },
          {
            algorithms: ['RS256'],
            // The docs make `exp` mandatory; `nbf` is checked when present.
            requiredClaims: ['exp'],
            issuer: BOT_FRAMEWORK_ISSUER,
            audience: options.appId,
            clockTolerance: CLOCK_SKEW_S,
            currentDate: now(),
          },
        );
        claims = verified.payload;
      } catch (error) {
        return refuse(refusalOf(error));
      }
      if (!activity.channelId || !endorsements.includes(activity.channelId)) {
        return refuse('channel_not_endorsed');
      }
      if (
        !activity.serviceUrl ||
        typeof claims.serviceUrl !== 'string' ||
        claims.serviceUrl !== activity.serviceUrl
      ) {
        return refuse('service_url_mismatch');
      }
      return { ok: true, claims };
    },
  };
}

const refuse = (refusal: BotAuthRefusal): BotAuthResult => ({ ok: false, refusal });

class KeyRefusal extends Error {
  constructor(readonly refusal: BotAuthRefusal) {
    super(refusal);
  }
}

function refusalOf(error: unknown): BotAuthRefusal {
  if (error instanceof KeyRefusal) return error.refusal;
  if (error instanceof errors.JWTExpired) return 'expired';
  if (error instanceof errors.JWTClaimValidationFailed) {
    if (error.claim === 'iss') return 'wrong_issuer';
    if (error.claim === 'aud') return 'wrong_audience';
    if (error.claim === 'nbf' || error.claim === 'iat') return 'not_yet_valid';
    return 'malformed_token';
  }
  if (error instanceof errors.JWSSignatureVerificationFailed) return 'bad_signature';
  // `alg` other than RS256 (`none`, HS256 with the public key as secret…) and broken tokens.
  return 'malformed_token';
}

/**
 * The issuer's signing keys by key id: fetched through the metadata's `jwks_uri`, kept a day, fetched
 * again for an unknown key id (at most once a minute). A refresh that fails keeps the old set; with
 * no set at all, `find` throws `keys_unavailable`.
 */
class BotSigningKeys {
  private byKid = new Map<string, SigningKey>();
  private fetchedAt = Number.NEGATIVE_INFINITY;
  private refreshing: Promise<void> | undefined;

  constructor(private readonly options: BotAuthOptions) {}

  async find(kid: string): Promise<SigningKey | undefined> {
    // A refresh under way (another request's, a cold start's) may bring this very key: wait for it
    // rather than judge the key by the set it is about to replace.
    if (this.refreshing) await this.refreshing.catch(() => undefined);
    const age = this.now() - this.fetchedAt;
    if (age > KEYS_MAX_AGE_MS || (!this.byKid.has(kid) && age > REFRESH_COOLDOWN_MS)) {
      await this.refresh().catch(() => undefined);
    }
    // No set at all (the first fetch failed, and the cooldown holds off the next): the issuer is the
    // problem, not the token.
    if (this.byKid.size === 0) throw new KeyRefusal('keys_unavailable');
    return this.byKid.get(kid);
  }

  private now(): number {
    return (this.options.now?.() ?? new Date()).getTime();
  }

  private refresh(): Promise<void> {
    this.refreshing ??= this.load().finally(() => {
      this.refreshing = undefined;
    });
    return this.refreshing;
  }

  private async load(): Promise<void> {
    // A failed fetch counts as a try too, so an issuer that is down is not asked on every request.
    this.fetchedAt = this.now();
    const deadline = new AbortController();
    const timer = setTimeout(
      () => deadline.abort(new Error('key set deadline passed')),
      KEYS_FETCH_DEADLINE_MS,
    );
    try {
      const metadataUrl = this.options.metadataUrl ?? BOT_FRAMEWORK_METADATA_URL;
      const metadata = (await this.getJson(metadataUrl, deadline.signal)) as { jwks_uri?: unknown } | null;
      if (typeof metadata?.jwks_uri !== 'string') throw new Error('OpenID metadata without jwks_uri');
      const set = (await this.getJson(metadata.jwks_uri, deadline.signal)) as { keys?: unknown } | null;
      this.byKid = await signingKeys(Array.isArray(set?.keys) ? set.keys : []);
    } finally {
      clearTimeout(timer);
    }
  }

  /** A JSON document of at most `MAX_DOCUMENT_BYTES`, read before `signal`'s deadline. */
  private async getJson(url: string, signal: AbortSignal): Promise<unknown> {
    const response = await (this.options.fetch ?? fetch)(url, { signal });
    if (!response.ok) throw new Error(`${url}: HTTP ${response.status}`);
    const tooLarge = () => new Error(`${url}: answer over ${MAX_DOCUMENT_BYTES} bytes`);
    if (Number(response.headers.get('content-length') ?? 0) > MAX_DOCUMENT_BYTES) throw tooLarge();
    const chunks: Uint8Array[] = [];
    let size = 0;
    // Leaving the loop early cancels the stream; the signal stops a body that trickles in.
    for await (const chunk of response.body ?? []) {
      size += chunk.byteLength;
      if (size > MAX_DOCUMENT_BYTES) throw tooLarge();
      chunks.push(chunk);
    }
    return JSON.parse(Buffer.concat(chunks).toString('utf8'));
  }
}

/** The published RSA keys by key id, with the channels each may sign for. */
async function signingKeys(published: readonly unknown[]): Promise<Map<string, SigningKey>> {
  const next = new Map<string, SigningKey>();
  for (const entry of published.slice(0, MAX_KEYS)) {
    const jwk = entry as (JWK & { endorsements?: unknown }) | null;
    if (typeof jwk?.kid !== 'string' || jwk.kty !== 'RSA') continue;
    const endorsements = Array.isArray(jwk.endorsements)
      ? jwk.endorsements.filter((e): e is string => typeof e === 'string')
      : [];
    next.set(jwk.kid, { key: await importJWK({ ...jwk, alg: 'RS256' }, 'RS256'), endorsements });
  }
  return next;
}
