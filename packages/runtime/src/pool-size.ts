import { maxConnections, type Sql } from '@firebreak/db';
import type { Logger } from '@firebreak/logger';

/** Raised at start-up when the pool could never be filled: the process must not start. */
export class PoolTooLargeError extends Error {
  override readonly name = 'PoolTooLargeError';
}

/**
 * DB_MAX_OPEN_CONNS (default 25) should be at most 20 % of the server's max_connections (default 100).
 * Above the whole of max_connections a busy process would fail with "too many connections" by itself,
 * so start-up refuses; above 20 % it warns, since every process (API, ingest, chat, worker, each
 * replica) holds a pool of its own and the sum is what the server sees
 * (docs/runbooks/database-too-many-connections.md).
 */
export async function checkPoolSize(sql: Sql, poolSize: number, logger: Logger): Promise<void> {
  const max = await maxConnections(sql);
  if (poolSize > max) {
    throw new PoolTooLargeError(
      `DB_MAX_OPEN_CONNS=${poolSize} is above the database's max_connections=${max}; ` +
        `lower DB_MAX_OPEN_CONNS to at most ${Math.floor(max * 0.2)} (20 %) or raise max_connections on the server`,
    );
  }
  if (poolSize > max * 0.2) {
    logger.warn(
      { db_max_open_conns: poolSize, max_connections: max },
      `DB_MAX_OPEN_CONNS=${poolSize} is above 20 % of the database's max_connections=${max}; ` +
        'with several processes the server may run out of connections ("too many connections")',
    );
  }
}

/**
 * Several processes of one start, each with a pool of DB_MAX_OPEN_CONNS (`pnpm start` with more than one
 * HTTP process): together they may open `processes × poolSize` connections. Pools fill only under load,
 * so start-up goes on, but the server should be told before a busy hour finds the limit.
 */
export async function checkProcessesFit(
  sql: Sql,
  poolSize: number,
  processes: number,
  logger: Logger,
): Promise<void> {
  const max = await maxConnections(sql);
  const total = poolSize * processes;
  if (total <= max) return;
  logger.warn(
    { db_max_open_conns: poolSize, processes, max_connections: max },
    `${processes} processes × DB_MAX_OPEN_CONNS=${poolSize} may open ${total} connections, above the ` +
      `database's max_connections=${max}; lower DB_MAX_OPEN_CONNS or HTTP_PROCESSES, or raise max_connections`,
  );
}
