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
]);

// SQLSTATEs meaning the server refused or dropped us: connection exceptions (class 08), shutdown and
// start-up states, too many connections, authentication failures, missing database.
const unavailableSqlStates = new Set([
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
