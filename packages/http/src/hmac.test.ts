import { describe, expect, it } from 'vitest';
import { hmacHex, hmacMatches, safeEqual } from './hmac';

// RFC 4231 test case 2: key "Jefe", data "what do ya want for nothing?".
const rfc4231 = {
  key: 'Jefe',
  data: 'what do ya want for nothing?',
  sha256: '5bdcc146bf60754e6a042426089575c75a003f089d2739839dec58b964ec3843',
  sha512:
    '164b7a7bfcf819e2e395fbe73b56e0a387bd64222e831fd610270cd7ea2505549758bf75c05a994a6d034f65f8f0e6fdcaeab1a34d4a6b4b636e070a38bce737',
};

describe('hmacHex', () => {
  it('computes the RFC 4231 test case 2 vectors', () => {
    expect(hmacHex(rfc4231.key, rfc4231.data)).toBe(rfc4231.sha256);
    expect(hmacHex(rfc4231.key, rfc4231.data, 'sha512')).toBe(rfc4231.sha512);
  });
});

describe('hmacMatches', () => {
  it('accepts the right signature', () => {
    expect(hmacMatches(rfc4231.key, rfc4231.data, rfc4231.sha256)).toBe(true);
    expect(hmacMatches(rfc4231.key, rfc4231.data, rfc4231.sha512, 'sha512')).toBe(true);
  });

  it('refuses another key, other data, a truncated or extended signature', () => {
    expect(hmacMatches('jefe', rfc4231.data, rfc4231.sha256)).toBe(false);
    expect(hmacMatches(rfc4231.key, `${rfc4231.data} `, rfc4231.sha256)).toBe(false);
    expect(hmacMatches(rfc4231.key, rfc4231.data, rfc4231.sha256.slice(0, -2))).toBe(false);
    expect(hmacMatches(rfc4231.key, rfc4231.data, `${rfc4231.sha256}00`)).toBe(false);
    expect(hmacMatches(rfc4231.key, rfc4231.data, '')).toBe(false);
  });

  it('refuses input that is not lowercase hex, even of the right length', () => {
    expect(hmacMatches(rfc4231.key, rfc4231.data, 'z'.repeat(64))).toBe(false);
    expect(hmacMatches(rfc4231.key, rfc4231.data, rfc4231.sha256.toUpperCase())).toBe(false);
    expect(hmacMatches(rfc4231.key, rfc4231.data, 'é'.repeat(32))).toBe(false);
  });
});

describe('safeEqual', () => {
  it('compares strings of any length', () => {
    expect(safeEqual('token', 'token')).toBe(true);
    expect(safeEqual('token', 'tokem')).toBe(false);
    expect(safeEqual('token', 'token-longer')).toBe(false);
    expect(safeEqual('', '')).toBe(true);
  });
});
