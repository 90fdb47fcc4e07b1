import { generateKeyPairSync, type KeyObject, randomUUID, sign } from 'node:crypto';
import { Hono } from 'hono';
import { listen, type RunningServer } from './http-server';

/**
 * A fake Bot Framework token issuer, from Microsoft's "Authenticate requests from the Bot Connector
 * service to your bot" (Bot Framework REST API docs): it serves the OpenID metadata document
 * (`/v1/.well-known/openidconfiguration`, whose `jwks_uri` names the key set), the key set
 * (`/v1/.well-known/keys`, each key with the `endorsements` of the channels it may sign for), and signs
 * RS256 tokens like the ones the Bot Connector puts in `Authorization: Bearer …` of each activity it
 * sends a bot. Keys can be rotated, and tokens can be made wrong in each way a verifier must refuse.
 */

export const BOT_FRAMEWORK_ISSUER = 'https://api.botframework.com';

interface IssuerKey {
  kid: string;
  privateKey: KeyObject;
  publicJwk: Record<string, unknown>;
  endorsements: string[];
}

export interface BotTokenClaims {
  /** The bot's app id (the token's audience). */
  aud?: string;
  iss?: string;
  serviceUrl?: string;
  /** Seconds since the epoch; `exp` defaults to an hour after `nbf`/now. */
  nbf?: number;
  exp?: number;
  [claim: string]: unknown;
}

export interface SignOptions {
  /** Sign with this key id (default: the newest key). */
  kid?: string;
  /** A key the issuer never published (a forged token). */
  unpublishedKey?: boolean;
  /** The JOSE `alg` written in the header (the signature stays RS256 unless `alg` is `none`). */
  alg?: string;
}

const b64url = (data: Buffer | string) => Buffer.from(data).toString('base64url');

function newKey(endorsements: string[]): IssuerKey {
  const { privateKey, publicKey } = generateKeyPairSync('rsa', { modulusLength: 2048 });
  const kid = randomUUID();
  const jwk = publicKey.export({ format: 'jwk' }) as Record<string, unknown>;
  return {
    kid,
    privateKey,
    publicJwk: { ...jwk, kty: 'RSA', use: 'sig', kid, endorsements },
    endorsements,
  };
}

export class FakeBotFrameworkAuth {
  /** Requests for the metadata and the key set, newest last (how often a verifier asks). */
  readonly requests: { path: string; time: Date }[] = [];
  private keys: IssuerKey[];
  private readonly stranger = newKey(['msteams']);
  private server!: RunningServer;

  constructor(endorsements: string[] = ['msteams', 'emulator']) {
    this.keys = [newKey(endorsements)];
  }

  get origin(): string {
    return this.server.origin;
  }

  /** What a verifier is configured with in place of login.botframework.com's metadata address. */
  get metadataUrl(): string {
    return `${this.origin}/v1/.well-known/openidconfiguration`;
  }

  /** Key ids currently published. */
  get kids(): string[] {
    return this.keys.map((k) => k.kid);
  }

  async start(): Promise<this> {
    const app = new Hono();
    app.get('/v1/.well-known/openidconfiguration', (c) => {
      this.requests.push({ path: c.req.path, time: new Date() });
      return c.json({
        issuer: BOT_FRAMEWORK_ISSUER,
        authorization_endpoint: 'https://invalid.botframework.com',
        jwks_uri: `${this.origin}/v1/.well-known/keys`,
        id_token_signing_alg_values_supported: ['RS256'],
        token_endpoint_auth_methods_supported: ['private_key_jwt'],
      });
    });
    app.get('/v1/.well-known/keys', (c) => {
      this.requests.push({ path: c.req.path, time: new Date() });
      return c.json({ keys: this.keys.map((k) => k.publicJwk) });
    });
    this.server = await listen((request) => app.fetch(request));
    return this;
  }

  close(): Promise<void> {
    return this.server.close();
  }

  /** Publishes a new signing key (the newest signs from now on); `dropOld` retires the others. */
  rotateKeys(options: { dropOld?: boolean; endorsements?: string[] } = {}): string {
    const key = newKey(options.endorsements ?? ['msteams', 'emulator']);
    this.keys = options.dropOld ? [key] : [...this.keys, key];
    return key.kid;
  }

  /** Requests for one path (`/v1/.well-known/keys`…). */
  requestsTo(path: string): number {
    return this.requests.filter((r) => r.path === path).length;
  }

  /** A token as the Bot Connector signs it; every claim can be overridden (or removed with `undefined`). */
  sign(claims: BotTokenClaims, options: SignOptions = {}): string {
    const key = options.unpublishedKey
      ? this.stranger
      : (this.keys.find((k) => k.kid === options.kid) ?? this.keys[this.keys.length - 1]!);
    const now = Math.floor(Date.now() / 1000);
    const payload = {
      iss: BOT_FRAMEWORK_ISSUER,
      nbf: now - 60,
      exp: (claims.nbf ?? now) + 3600,
      ...claims,
    };
    const alg = options.alg ?? 'RS256';
    const header = b64url(JSON.stringify({ alg, kid: key.kid, typ: 'JWT' }));
    const body = b64url(JSON.stringify(payload));
    const input = `${header}.${body}`;
    if (alg === 'none') return `${input}.`;
    const signature = sign('RSA-SHA256', Buffer.from(input), key.privateKey);
    return `${input}.${b64url(signature)}`;
  }
}

export async function startFakeBotFrameworkAuth(endorsements?: string[]): Promise<FakeBotFrameworkAuth> {
  return new FakeBotFrameworkAuth(endorsements).start();
}
