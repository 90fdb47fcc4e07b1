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

export function createSql(url: string, options: CreateSqlOptions = {}): Sql {
  return postgres(url, {
    max: options.max ?? 25,
    connect_timeout: options.connectTimeoutSeconds ?? 5,
    idle_timeout: 60,
    // Connections are recycled now and then so that a failover or a restarted server is picked up.
    max_lifetime: 30 * 60,
    onnotice: () => {},
    connection: { application_name: options.applicationName ?? 'firebreak' },
  }) as Sql;
}
