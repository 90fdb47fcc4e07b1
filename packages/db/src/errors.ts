/**
 * Tells whether an error means "PostgreSQL cannot be reached or will not serve us" (as opposed to a
 * bad query). Such errors become 500 `database_unavailable` (docs/api.md#errors).
 */

// Socket errors from Node and the connection errors postgres.js raises itself.
const connectionErrorCodes = new Set([
  'ECONNREFUSED',
  'ECONNRESET',
  'ETIMEDOUT',
  'ENOTFOUND',
  'EAI_AGAIN',
  'EHOSTUNREACH',
  'ENETUNREACH',
  'EPIPE',
  'CONNECT_TIMEOUT',
  'CONNECTION_CLOSED',
  'CONNECTION_ENDED',
  'CONNECTION_DESTROYED',
  // Every host of DATABASE_URL was tried and none took a read-write session (a failover under way).
  'TARGET_SESSION_ATTRS',
]);

// SQLSTATEs meaning the server refused or dropped us: connection exceptions (class 08), shutdown and
// start-up states, too many connections, authentication failures, missing database, and a write
// refused as read-only (25006: the server was demoted, or its failover manager holds it read-only).
const unavailableSqlStates = new Set([
  '25006',
  '57P01',
  '57P02',
  '57P03',
  '53300',
  '53400',
  '28P01',
  '28000',
  '3D000',
]);

export function isDatabaseUnavailable(error: unknown): boolean {
  if (typeof error !== 'object' || error === null) return false;
  const code = (error as { code?: unknown }).code;
  if (typeof code !== 'string') return false;
  if (connectionErrorCodes.has(code)) return true;
  if (unavailableSqlStates.has(code)) return true;
  return code.startsWith('08');
}

// Cut off under a transaction: the connection broke or the server went away or read-only mid-way. The
// transaction may have committed (the acknowledgement is what was lost) or not; running it again is
// safe only where a second run finds the first one's work (docs/decisions.md#postgresql-failover). Not
// here: a connection that could not be made at all (refused, no read-write host), where a retry at once
// finds the same, and the caller answers `database_unavailable` at once.
const cutOffCodes = new Set([
  'ECONNRESET',
  'EPIPE',
  'CONNECTION_CLOSED',
  '57P01',
  '57P02',
  '25006',
  '08000',
  '08003',
  '08006',
]);

export function isCutOff(error: unknown): boolean {
  const code = (error as { code?: unknown } | null)?.code;
  return typeof code === 'string' && cutOffCodes.has(code);
}
