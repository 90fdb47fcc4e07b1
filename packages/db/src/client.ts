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

export function createSql(url: string, options: CreateSqlOptions = {}): Sql {
  return postgres(url, {
    max: options.max ?? 25,
    connect_timeout: options.connectTimeoutSeconds ?? 5,
    backoff: reconnectDelaySeconds,
    idle_timeout: 60,
    // Connections are recycled now and then so that a failover or a restarted server is picked up.
    max_lifetime: 30 * 60,
    onnotice: () => {},
    connection: { application_name: options.applicationName ?? 'firebreak' },
  }) as Sql;
}
