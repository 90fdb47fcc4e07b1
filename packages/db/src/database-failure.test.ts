import { describe, expect, it } from 'vitest';
import { describeDatabaseFailure } from './database-failure';

// The shapes postgres.js and PostgreSQL produce (SQLSTATE codes from the server, Node's socket codes).
const failure = (code: string | undefined, message: string) => Object.assign(new Error(message), { code });

describe('describeDatabaseFailure', () => {
  it.each([
    [
      failure('ECONNREFUSED', 'connect ECONNREFUSED 127.0.0.1:5999'),
      'connection refused',
      'database down or unreachable',
    ],
    [
      failure('28P01', 'password authentication failed for user "firebreak"'),
      'password authentication failed',
      'wrong DATABASE_URL credentials',
    ],
    [failure('53300', 'sorry, too many clients already'), 'too many connections', 'connection limit'],
    [
      failure('53300', 'remaining connection slots are reserved for roles with the SUPERUSER attribute'),
      'too many connections',
      'max_connections',
    ],
    [
      failure('28000', 'no pg_hba.conf entry for host "127.0.0.1", user "x", database "y", no encryption'),
      'SSL connection required',
      'sslmode=disable',
    ],
    [
      failure(
        '28000',
        'pg_hba.conf rejects connection for host "127.0.0.1", user "x", database "y", SSL off',
      ),
      'SSL connection required',
      'TLS',
    ],
    [
      failure(undefined, 'SSL connection is required. Please specify SSL options and retry.'),
      'SSL connection required',
      'TLS',
    ],
    [
      failure('28000', 'no pg_hba.conf entry for host "10.0.0.9", user "x", database "y", SSL encryption'),
      'connection not allowed',
      'pg_hba.conf',
    ],
    [failure('3D000', 'database "nope" does not exist'), 'database does not exist', 'database name'],
    [
      failure('CONNECT_TIMEOUT', 'write CONNECT_TIMEOUT 10.0.0.1:5432'),
      'connection timed out',
      'unreachable',
    ],
    [new Error('timed out after 2000 ms'), 'connection timed out', 'unreachable'],
    [
      failure('57P01', 'terminating connection due to administrator command'),
      'server shutting down',
      'restarted',
    ],
    [failure('CONNECTION_CLOSED', 'write CONNECTION_CLOSED 127.0.0.1:5432'), 'connection lost', 'restarted'],
    [
      failure('TARGET_SESSION_ATTRS', 'write TARGET_SESSION_ATTRS 127.0.0.1:5433'),
      'no read-write server',
      'failover under way',
    ],
    [
      failure('25006', 'cannot execute INSERT in a read-only transaction'),
      'server is read-only',
      'demoted to a standby',
    ],
  ])('%s → %s', (error, reason, cause) => {
    const described = describeDatabaseFailure(error);
    expect(described.reason).toBe(reason);
    expect(described.line).toMatch(new RegExp(`^database: ${reason} \\(.*${cause}.*\\): `));
    // The underlying message is kept, in the line and as a field.
    expect(described.line.endsWith(error.message)).toBe(true);
    expect(described.fields.err.message).toBe(error.message);
  });
});
