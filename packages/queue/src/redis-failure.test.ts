import { describe, expect, it } from 'vitest';
import { describeRedisFailure } from './redis-failure';

const failure = (code: string | undefined, message: string) => Object.assign(new Error(message), { code });

describe('describeRedisFailure', () => {
  it.each([
    [failure('ECONNREFUSED', 'connect ECONNREFUSED 127.0.0.1:6390'), 'connection refused', 'store down'],
    [failure(undefined, 'NOAUTH Authentication required.'), 'NOAUTH', 'KV_PASSWORD is not set'],
    [failure(undefined, 'Ready check failed: NOAUTH Authentication required.'), 'NOAUTH', 'KV_PASSWORD'],
    [
      failure(undefined, 'WRONGPASS invalid username-password pair or user is disabled.'),
      'WRONGPASS',
      'does not match',
    ],
    [failure(undefined, 'ERR max number of clients reached'), 'max number of clients reached', 'maxclients'],
    [failure('ETIMEDOUT', 'connect ETIMEDOUT'), 'connection timed out', 'unreachable'],
    [failure('ECONNRESET', 'read ECONNRESET'), 'connection lost', 'restarted'],
  ])('%s → %s', (error, reason, cause) => {
    const described = describeRedisFailure(error);
    expect(described.reason).toBe(reason);
    expect(described.line).toMatch(new RegExp(`^redis: ${reason} \\(.*${cause}.*\\): `));
    expect(described.line.endsWith(error.message)).toBe(true);
  });
});
