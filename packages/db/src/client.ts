import { parseDatabaseUrl } from '@firebreak/config';
import postgres from 'postgres';

// biome-ignore lint/complexity/noBannedTypes: postgres.js's own default for "no custom types".
export type Sql = postgres.Sql<{}>;
export type TransactionSql = postgres.TransactionSql<Record<string, never>>;
/** A pool or a transaction: every query function takes this first. */
export type Queryable = Sql | TransactionSql;

export interface CreateSqlOptions {
  /** Pool size (`DB_MAX_OPEN_CONNS`). */
  max?: number;
  /**
   * Seconds to wait for a connection. Short, so that a request fails fast with
   * `database_unavailable` instead of hanging while PostgreSQL is down.
   */
  connectTimeoutSeconds?: number;
  applicationName?: string;
}

/** The longest a query waits before its connection tries again after a failed attempt. */
export const MAX_RECONNECT_DELAY_SECONDS = 0.25;

/**
 * How long a connection waits before its next attempt, after `failures` failed attempts in a row (the
 * count is shared by the whole pool and reset by a successful connection). postgres.js's default grows
 * to 20 s and a query handed to a waiting connection waits it out before the attempt is even made, so
 * during an outage a request sat up to 20 s per attempt, several attempts in a row when more requests
 * were in flight than the pool has connections, and the recovery was seen up to 20 s late
 * (docs/decisions.md#a-database-outage-answers-at-once). The pool only connects when a query waits, so
 * a short wait costs a down server nothing but a refused connection per query; jitter spreads replicas.
 */
export function reconnectDelaySeconds(failures: number): number {
  const grown = 0.01 * 2 ** Math.min(failures, 10);
  return Math.min(grown, MAX_RECONNECT_DELAY_SECONDS) * (0.5 + Math.random() / 2);
}

/**
 * A pool on `url`, which may list a failover pair's nodes (`pg-a:5432,pg-b:5432`). Every connection asks
 * for a read-write session (or `primary` when the URL says so): the hosts are tried in order and a
 * standby, or a promoted server its failover manager still holds read-only, is passed over. A
 * connection whose write is refused as read-only is closed once idle, so the next one looks again
 * (docs/decisions.md#postgresql-failover; both rest on patches/postgres@3.4.9.patch).
 */
export function createSql(url: string, options: CreateSqlOptions = {}): Sql {
  const parsed = parseDatabaseUrl(url);
  return postgres(url, {
    target_session_attrs: parsed.ok ? parsed.value.targetSessionAttrs : 'read-write',
    max: options.max ?? 25,
    connect_timeout: options.connectTimeoutSeconds ?? 5,
    backoff: reconnectDelaySeconds,
    idle_timeout: 60,
    // Connections are recycled now and then (a server that came back as a standby is noticed anyway:
    // its connections drop, and a refused write closes the one it was on).
    max_lifetime: 30 * 60,
    onnotice: () => {},
    connection: { application_name: options.applicationName ?? 'firebreak' },
  }) as Sql;
}
