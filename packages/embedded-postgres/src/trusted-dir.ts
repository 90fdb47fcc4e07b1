import { lstatSync } from 'node:fs';
import { EmbeddedPostgresError } from './errors';

/**
 * Refuses a directory that someone other than this process's user could have prepared: as root we copy
 * binaries into it and run them, or link a database into it, so it must be a real directory (not a
 * link), ours, and closed to writes by group and others.
 */
export function trustedOrRefuse(dir: string, what: string): void {
  const stat = lstatSync(dir);
  const ownedByUs = stat.uid === process.getuid?.();
  if (stat.isDirectory() && ownedByUs && (stat.mode & 0o022) === 0) return;
  throw new EmbeddedPostgresError(
    `${dir} is not a directory owned by this user and closed to writes by others, so ${what} in it ` +
      'cannot be trusted: remove it and start again.',
  );
}
