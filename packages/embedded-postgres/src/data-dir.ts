import { createHash } from 'node:crypto';
import {
  chmodSync,
  existsSync,
  lstatSync,
  mkdirSync,
  readdirSync,
  readlinkSync,
  rmdirSync,
  symlinkSync,
} from 'node:fs';
import { basename, dirname, join, resolve } from 'node:path';
import { EmbeddedPostgresError } from './errors';
import { canReach, closedParent, type ServerUser } from './server-user';
import { trustedOrRefuse } from './trusted-dir';

/**
 * Where relocated data directories go (see `placeDataDir`): the system's place for a service's state,
 * root-owned and open to other users, kept across reboots.
 */
export const DEFAULT_RELOCATION_ROOT = '/var/lib/firebreak';

export interface PlacedDataDir {
  /** The real directory the server uses. */
  path: string;
  /** Set when `requested` is a link to `path`, made because the server's user cannot reach `requested`. */
  relocatedFrom?: string;
}

/**
 * Where the server keeps its data. Normally `requested` itself. When we are root and a parent of
 * `requested` is closed to the server's user (a checkout under /root, or under a 0700 `mktemp -d`), a
 * new data directory is made in `relocationRoot` instead, and `requested` becomes a link to it, so that
 * later starts, `runningPostmaster` and people find it. Data that already exists behind a closed parent
 * is never moved: moving someone's database silently is worse than saying what to do.
 */
export function placeDataDir(
  user: ServerUser | undefined,
  requested: string,
  relocationRoot: string,
): PlacedDataDir {
  const wanted = resolve(requested);
  mkdirSync(dirname(wanted), { recursive: true });
  const linked = isLink(wanted);
  const path = linked ? resolve(dirname(wanted), readlinkSync(wanted)) : wanted;
  mkdirSync(dirname(path), { recursive: true });
  if (canReach(user, dirname(path))) return linked ? { path, relocatedFrom: wanted } : { path };
  if (linked || !isEmptyOrMissing(wanted)) {
    throw new EmbeddedPostgresError(
      `the embedded PostgreSQL runs as the "${user!.name}" user (PostgreSQL refuses root), which cannot ` +
        `reach its data in ${path}: ${closedParent(user!, path)} is closed to it. Open that directory to it ` +
        '(chmod o+x), move the data and set DATA_DIR to a directory it can enter, or run Firebreak as ' +
        'another user.',
    );
  }
  // Keyed by the requested path, so that two checkouts never share a database.
  const key = createHash('sha256').update(wanted).digest('hex').slice(0, 12);
  const label = `${basename(dirname(wanted))}-${basename(wanted)}`.replace(/^\.+/, '');
  const target = join(relocationRoot, `${label}-${key}`);
  mkdirSync(relocationRoot, { recursive: true, mode: 0o755 });
  trustedOrRefuse(relocationRoot, 'a database');
  chmodSync(relocationRoot, 0o755);
  if (!canReach(user, relocationRoot)) {
    throw new EmbeddedPostgresError(
      `the embedded PostgreSQL runs as the "${user!.name}" user, which can reach neither ${dirname(wanted)} ` +
        `nor ${relocationRoot}: ${closedParent(user!, relocationRoot)} is closed to it. Set DATA_DIR to a ` +
        'directory it can enter, or run Firebreak as another user.',
    );
  }
  if (!isEmptyOrMissing(target)) {
    // Its DATA_DIR (with the password) was deleted, but not the data: reusing it could only fail later.
    throw new EmbeddedPostgresError(
      `${target} holds the embedded PostgreSQL data of an earlier ${wanted}, whose link to it is gone: ` +
        `remove it (rm -rf ${target}) to start afresh, or put the link back (ln -s ${target} ${wanted}) ` +
        'together with the rest of that DATA_DIR.',
    );
  }
  if (existsSync(wanted)) rmdirSync(wanted);
  symlinkSync(target, wanted, 'dir');
  return { path: target, relocatedFrom: wanted };
}

function isLink(path: string): boolean {
  try {
    return lstatSync(path).isSymbolicLink();
  } catch {
    return false;
  }
}

function isEmptyOrMissing(path: string): boolean {
  return !existsSync(path) || (lstatSync(path).isDirectory() && readdirSync(path).length === 0);
}
