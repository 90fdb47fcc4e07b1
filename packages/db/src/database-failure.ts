/**
 * Names a database failure the way the runbooks (docs/runbooks/) do, so the log line an
 * operator sees leads straight to the page that explains it. The server's own message is kept.
 */
export interface DatabaseFailure {
  /** The runbook's name for it: `connection refused`, `password authentication failed`, … */
  reason: string;
  /** `database: <reason> (<likely cause>): <the server's or driver's message>` */
  line: string;
  /** The error in the shape every log line uses (`err`), without a stack: the line says where. */
  fields: { err: { type: string; code: string | undefined; message: string } };
}

interface Pattern {
  reason: string;
  cause: string;
  matches: (code: string | undefined, message: string) => boolean;
}

const codeIs =
  (...codes: string[]) =>
  (code: string | undefined) =>
    code !== undefined && codes.includes(code);

// First match wins; the order puts the specific before the general.
const patterns: Pattern[] = [
  { reason: 'connection refused', cause: 'database down or unreachable', matches: codeIs('ECONNREFUSED') },
  {
    reason: 'password authentication failed',
    cause: 'wrong DATABASE_URL credentials',
    matches: (code, message) => code === '28P01' || /password authentication failed/i.test(message),
  },
  {
    reason: 'too many connections',
    cause: 'pool or server connection limit reached: DB_MAX_OPEN_CONNS × processes against max_connections',
    matches: (code, message) =>
      code === '53300' || /too many clients|remaining connection slots are reserved/i.test(message),
  },
  {
    // PostgreSQL 16+: "… no encryption"; older servers: "… SSL off". Managed services say it outright.
    reason: 'SSL connection required',
    cause: 'server requires TLS while DATABASE_URL has sslmode=disable',
    matches: (code, message) =>
      /SSL connection is required|no encryption|SSL off/i.test(message) &&
      (code === '28000' || code === undefined),
  },
  {
    reason: 'connection not allowed',
    cause: 'pg_hba.conf has no entry for this host, user and database',
    matches: codeIs('28000'),
  },
  {
    reason: 'database does not exist',
    cause: 'wrong database name in DATABASE_URL',
    matches: codeIs('3D000'),
  },
  {
    reason: 'host not found',
    cause: 'the host in DATABASE_URL does not resolve',
    matches: codeIs('ENOTFOUND', 'EAI_AGAIN'),
  },
  {
    reason: 'connection timed out',
    cause: 'database host unreachable or overloaded',
    matches: (code, message) =>
      codeIs('CONNECT_TIMEOUT', 'ETIMEDOUT', 'EHOSTUNREACH', 'ENETUNREACH')(code) ||
      /timed out/i.test(message),
  },
  {
    reason: 'no read-write server',
    cause:
      'every host of DATABASE_URL is down, a standby or held read-only: a failover under way, or no primary listed',
    matches: codeIs('TARGET_SESSION_ATTRS'),
  },
  {
    reason: 'server is read-only',
    cause: 'the server was demoted to a standby or made read-only; the connection is being replaced',
    matches: codeIs('25006'),
  },
  {
    reason: 'server shutting down',
    cause: 'the database is being stopped, restarted or is still starting',
    matches: codeIs('57P01', '57P02', '57P03'),
  },
  {
    reason: 'connection lost',
    cause: 'the database restarted or the network dropped the connection',
    matches: (code) =>
      codeIs('ECONNRESET', 'EPIPE', 'CONNECTION_CLOSED', 'CONNECTION_ENDED', 'CONNECTION_DESTROYED')(code) ||
      (code?.startsWith('08') ?? false),
  },
];

export function describeDatabaseFailure(error: unknown): DatabaseFailure {
  const code =
    typeof (error as { code?: unknown })?.code === 'string' ? (error as { code: string }).code : undefined;
  const message = error instanceof Error ? error.message : String(error);
  const pattern = patterns.find((p) => p.matches(code, message));
  const reason = pattern?.reason ?? 'unavailable';
  const cause = pattern?.cause ?? 'unexpected connection error';
  return {
    reason,
    line: `database: ${reason} (${cause}): ${message}`,
    fields: { err: { type: errorType(error), code, message } },
  };
}

function errorType(error: unknown): string {
  return error instanceof Error ? (error.constructor?.name ?? error.name) : typeof error;
}
