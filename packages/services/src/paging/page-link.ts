import { createHmac, timingSafeEqual } from 'node:crypto';
import type { Queryable } from '@firebreak/db';
import type { ServiceContext } from '../context';
import { pagingKey } from './link-key';

/** A link acknowledges for 24 hours after the page was sent (docs/paging.md#acknowledge-links). */
export const PAGE_LINK_TTL_MS = 24 * 60 * 60 * 1000;
/** Where the API serves the links; the request log shows only the start of the token. */
export const PAGE_LINK_PATH = '/api/v1/page/';

export interface PageLinkClaims {
  incidentId: string;
  userId: string;
  expiresAt: Date;
}

// The token is base64url of: incident id (16 bytes), user id (16), expiry in Unix seconds (4), then the
// first 16 bytes of HMAC-SHA256 over those 36 bytes. 70 characters: short enough for an SMS.
const BODY_BYTES = 36;
const MAC_BYTES = 16;

function mac(key: Buffer, body: Buffer): Buffer {
  return createHmac('sha256', key).update('page-link:').update(body).digest().subarray(0, MAC_BYTES);
}

const uuidBytes = (id: string) => Buffer.from(id.replace(/-/g, ''), 'hex');
const uuidText = (bytes: Buffer) =>
  bytes.toString('hex').replace(/^(.{8})(.{4})(.{4})(.{4})(.{12})$/, '$1-$2-$3-$4-$5');

/** `connection`: one of the pool's connections the caller holds, to read the key through (link-key.ts). */
export async function signPageLink(
  ctx: ServiceContext,
  incidentId: string,
  userId: string,
  connection?: Queryable,
): Promise<string> {
  const key = await pagingKey(ctx.sql, connection);
  const expires = Math.floor((ctx.now().getTime() + PAGE_LINK_TTL_MS) / 1000);
  const body = Buffer.alloc(BODY_BYTES);
  uuidBytes(incidentId).copy(body, 0);
  uuidBytes(userId).copy(body, 16);
  body.writeUInt32BE(expires, 32);
  return Buffer.concat([body, mac(key, body)]).toString('base64url');
}

/** The claims of a genuine, unexpired token; undefined for anything else (tampered, cut, expired). */
export async function verifyPageLink(
  ctx: ServiceContext,
  token: string,
): Promise<PageLinkClaims | undefined> {
  if (!/^[A-Za-z0-9_-]{70}$/.test(token)) return undefined;
  const raw = Buffer.from(token, 'base64url');
  // Only the one canonical spelling: the last character's spare bits must be zero.
  if (raw.length !== BODY_BYTES + MAC_BYTES || raw.toString('base64url') !== token) return undefined;
  const body = raw.subarray(0, BODY_BYTES);
  const expected = mac(await pagingKey(ctx.sql), body);
  if (!timingSafeEqual(expected, raw.subarray(BODY_BYTES))) return undefined;
  const expiresAt = new Date(body.readUInt32BE(32) * 1000);
  if (expiresAt <= ctx.now()) return undefined;
  return { incidentId: uuidText(body.subarray(0, 16)), userId: uuidText(body.subarray(16, 32)), expiresAt };
}

/**
 * The one-click acknowledge link of a page to `userId` about `incidentId`, for the senders: e-mail,
 * SMS, push, the voice call and chat all carry it. `publicUrl` is the installation's `PUBLIC_URL`;
 * `connection` as for `signPageLink`.
 */
export async function pageLinkUrl(
  ctx: ServiceContext,
  link: { publicUrl: string; incidentId: string; userId: string },
  connection?: Queryable,
): Promise<string> {
  const token = await signPageLink(ctx, link.incidentId, link.userId, connection);
  return `${link.publicUrl.replace(/\/+$/, '')}${PAGE_LINK_PATH}${token}`;
}
