// http_ece has no types of its own; the declaration travels with this file to every package that compiles it.
/// <reference path="./http-ece.d.ts" />
import { createECDH, createPublicKey, type ECDH, randomBytes, randomUUID, verify } from 'node:crypto';
import { Hono } from 'hono';
import ece from 'http_ece';
import { FaultQueue } from './faults';
import { listen, type RunningServer } from './http-server';

/**
 * A fake Web Push service (docs/paging-twilio-push.md#web-push), the part of a browser vendor's cloud
 * that holds subscriptions. `createSubscription()` is what a browser does on `pushManager.subscribe`:
 * it makes the P-256 key pair and auth secret and keeps the private half. A POST to an endpoint is
 * checked as a push service checks it (RFC 8030 `TTL`; RFC 8292 VAPID: an ES256 JWT whose signature
 * verifies with `k`, `aud` the endpoint's origin, `exp` in the future and at most 24 hours away), then the
 * aes128gcm body (RFC 8291) is decrypted with the subscription's keys and recorded; the answer is 201.
 */

export interface FakePushSubscription {
  endpoint: string;
  keys: { p256dh: string; auth: string };
}

export interface FakePushMessage {
  endpoint: string;
  /** The decrypted body. */
  payload: string;
  ttl: number;
  urgency: string | undefined;
  topic: string | undefined;
  /** The JWT's `sub` (the VAPID subject: a mailto: or https: contact). */
  subject: string | undefined;
  time: Date;
}

export interface FakePushRefusal {
  endpoint: string;
  status: number;
  reason: string;
}

interface Held {
  ecdh: ECDH;
  auth: string;
  /** The `applicationServerKey` the browser subscribed with; another VAPID key is refused (403). */
  serverKey: string | undefined;
  expired: boolean;
}

const MAX_EXP_AHEAD_SECONDS = 24 * 60 * 60;

export class FakePushService {
  readonly messages: FakePushMessage[] = [];
  readonly refusals: FakePushRefusal[] = [];
  private readonly subscriptions = new Map<string, Held>();
  private readonly faults = new FaultQueue<{ status: number; retryAfter?: string }>();
  private server!: RunningServer;

  get origin(): string {
    return this.server.origin;
  }

  async start(): Promise<this> {
    const app = new Hono();
    app.post('/push/:id', async (c) => {
      const endpoint = `${this.origin}/push/${c.req.param('id')}`;
      const body = Buffer.from(await c.req.arrayBuffer());
      const { status, reason, headers } = this.receive(endpoint, c.req.raw.headers, body);
      if (status !== 201) {
        this.refusals.push({ endpoint, status, reason });
        return c.text(reason, status as 400, headers);
      }
      return c.body(null, 201, { location: `${this.origin}/message/${randomUUID()}` });
    });
    this.server = await listen(app.fetch);
    return this;
  }

  close(): Promise<void> {
    return this.server.close();
  }

  /** What the browser's `pushManager.subscribe({applicationServerKey})` gives back, as JSON. */
  createSubscription(options: { applicationServerKey?: string } = {}): FakePushSubscription {
    const ecdh = createECDH('prime256v1');
    ecdh.generateKeys();
    const auth = randomBytes(16).toString('base64url');
    const endpoint = `${this.origin}/push/${randomUUID()}`;
    this.subscriptions.set(endpoint, { ecdh, auth, serverKey: options.applicationServerKey, expired: false });
    return { endpoint, keys: { p256dh: ecdh.getPublicKey().toString('base64url'), auth } };
  }

  /** The person unsubscribed (or the browser dropped the subscription): the endpoint answers 410. */
  expire(endpoint: string): void {
    const held = this.subscriptions.get(endpoint);
    if (!held) throw new Error(`no subscription ${endpoint}`);
    held.expired = true;
  }

  /** The next `times` messages are answered `status` (429 or a 5xx), with `Retry-After` when given. */
  failNext(status: number, options: { times?: number; retryAfter?: string } = {}): void {
    this.faults.add('*', { status, retryAfter: options.retryAfter }, options.times ?? 1);
  }

  messagesTo(endpoint: string): FakePushMessage[] {
    return this.messages.filter((m) => m.endpoint === endpoint);
  }

  private receive(
    endpoint: string,
    headers: Headers,
    body: Buffer,
  ): { status: number; reason: string; headers?: Record<string, string> } {
    const held = this.subscriptions.get(endpoint);
    if (!held) return { status: 404, reason: 'no such subscription' };
    if (held.expired) return { status: 410, reason: 'subscription expired' };
    const fault = this.faults.take('*');
    if (fault) {
      const extra = fault.retryAfter ? { 'retry-after': fault.retryAfter } : undefined;
      return {
        status: fault.status,
        reason: 'push service unavailable',
        ...(extra ? { headers: extra } : {}),
      };
    }
    const ttl = headers.get('ttl');
    if (ttl === null || !/^\d+$/.test(ttl)) return { status: 400, reason: 'TTL header missing or invalid' };
    const vapid = readVapid(headers.get('authorization'), new URL(endpoint).origin);
    if (typeof vapid === 'string') return { status: 401, reason: vapid };
    if (held.serverKey && vapid.key !== held.serverKey) {
      return { status: 403, reason: 'VAPID key is not the applicationServerKey of the subscription' };
    }
    if (headers.get('content-encoding') !== 'aes128gcm') {
      return { status: 415, reason: 'Content-Encoding must be aes128gcm' };
    }
    let payload: string;
    try {
      payload = ece
        .decrypt(body, { version: 'aes128gcm', privateKey: held.ecdh, authSecret: held.auth })
        .toString();
    } catch (error) {
      return {
        status: 400,
        reason: `cannot decrypt: ${error instanceof Error ? error.message : String(error)}`,
      };
    }
    this.messages.push({
      endpoint,
      payload,
      ttl: Number(ttl),
      urgency: headers.get('urgency') ?? undefined,
      topic: headers.get('topic') ?? undefined,
      subject: vapid.subject,
      time: new Date(),
    });
    return { status: 201, reason: 'created' };
  }
}

/** A malformed JWT or key is a refusal (401), not a crash of the fake. */
function readVapid(authorization: string | null, audience: string): ReturnType<typeof checkVapid> {
  try {
    return checkVapid(authorization, audience);
  } catch (error) {
    return `malformed vapid credentials: ${error instanceof Error ? error.message : String(error)}`;
  }
}

/** RFC 8292's `Authorization: vapid t=<JWT>, k=<public key>`; a reason string when it does not hold. */
function checkVapid(
  authorization: string | null,
  audience: string,
): { key: string; subject: string | undefined } | string {
  const match = /^vapid\s+(.*)$/i.exec(authorization ?? '');
  if (!match) return 'Authorization is not a vapid scheme';
  const fields = Object.fromEntries(
    match[1]!.split(',').map((part) => {
      const [name, ...value] = part.trim().split('=');
      return [name!.trim(), value.join('=').trim()];
    }),
  );
  const token = fields.t;
  const key = fields.k;
  if (!token || !key) return 'vapid needs t= and k=';
  const [header, claims, signature] = token.split('.');
  if (!header || !claims || !signature) return 'the JWT is not three parts';
  const point = Buffer.from(key, 'base64url');
  if (point.length !== 65 || point[0] !== 4) return 'k is not an uncompressed P-256 point';
  const publicKey = createPublicKey({
    key: {
      kty: 'EC',
      crv: 'P-256',
      x: point.subarray(1, 33).toString('base64url'),
      y: point.subarray(33).toString('base64url'),
    },
    format: 'jwk',
  });
  const signed = verify(
    'sha256',
    Buffer.from(`${header}.${claims}`),
    { key: publicKey, dsaEncoding: 'ieee-p1363' },
    Buffer.from(signature, 'base64url'),
  );
  if (!signed) return 'the JWT signature does not verify with k';
  const head = JSON.parse(Buffer.from(header, 'base64url').toString()) as { alg?: string };
  if (head.alg !== 'ES256') return 'the JWT is not ES256';
  const body = JSON.parse(Buffer.from(claims, 'base64url').toString()) as {
    aud?: string;
    exp?: number;
    sub?: string;
  };
  if (body.aud !== audience) return `aud ${body.aud} is not ${audience}`;
  const now = Math.floor(Date.now() / 1000);
  if (typeof body.exp !== 'number' || body.exp <= now) return 'exp is missing or past';
  if (body.exp > now + MAX_EXP_AHEAD_SECONDS) return 'exp is more than 24 hours away';
  return { key, subject: body.sub };
}

export async function startFakePushService(): Promise<FakePushService> {
  return new FakePushService().start();
}
