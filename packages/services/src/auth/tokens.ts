import { createHash, randomBytes } from 'node:crypto';

/**
 * Bearer tokens are 256 random bits with a readable prefix (`fbs_` session, `fbk_` API key) so a
 * leaked one is recognisable in a log or a secret scanner. Only their SHA-256 digest is stored; it is
 * looked up by equality in an index, so no secret is ever compared byte by byte in JavaScript.
 */
export type TokenKind = 'session' | 'api_key';

const prefixes: Record<TokenKind, string> = { session: 'fbs_', api_key: 'fbk_' };

export function generateToken(kind: TokenKind): string {
  return `${prefixes[kind]}${randomBytes(32).toString('base64url')}`;
}

export function hashToken(token: string): Buffer {
  return createHash('sha256').update(token).digest();
}

export function tokenKind(token: string): TokenKind | undefined {
  if (token.startsWith(prefixes.session)) return 'session';
  if (token.startsWith(prefixes.api_key)) return 'api_key';
  return undefined;
}
