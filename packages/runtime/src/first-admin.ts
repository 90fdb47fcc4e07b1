import { closeSync, mkdirSync, openSync, rmSync, writeSync } from 'node:fs';
import { join, resolve } from 'node:path';
import type { Logger } from '@firebreak/logger';
import type { BootstrappedAdmin } from '@firebreak/services';

export const FIRST_ADMIN_PASSWORD_FILE = 'first-admin-password';

/**
 * Writes a generated first-admin password to `DATA_DIR/first-admin-password`, readable by this user
 * only (0600), and answers the file's path. An app of the split deployment never prints the password:
 * its stdout is a container log, which is collected, shipped and kept where a secret must not be
 * (docs/runbooks/first-admin-password.md). A file left from an earlier installation is replaced, never
 * appended to or written through (it could be a link planted by someone else).
 */
export function writeFirstAdminPassword(dataDir: string, password: string): string {
  const dir = resolve(dataDir);
  mkdirSync(dir, { recursive: true, mode: 0o700 });
  const path = join(dir, FIRST_ADMIN_PASSWORD_FILE);
  rmSync(path, { force: true });
  // `wx`: create, and fail rather than follow anything that appeared at the path meanwhile.
  const fd = openSync(path, 'wx', 0o600);
  try {
    writeSync(fd, `${password}\n`);
  } finally {
    closeSync(fd);
  }
  return path;
}

/** The line an app of the split deployment prints about the first admin: the path, not the password. */
export function firstAdminLine(admin: BootstrappedAdmin, passwordFile: string | undefined): string {
  return passwordFile
    ? `First admin: ${admin.email}, password in ${passwordFile} (read it, log in, change it, delete the file)`
    : `First admin: ${admin.email} (password from BOOTSTRAP_ADMIN_PASSWORD)`;
}

/**
 * How an app of the split deployment hands the first admin over (prepareDatabase's `onAdmin`): a
 * generated password goes to the file, and the log and `print` (stdout) get the path only.
 */
export function firstAdminHandover(options: {
  dataDir: string;
  logger: Logger;
  print: (line: string) => void;
}): (admin: BootstrappedAdmin) => void {
  return (admin) => {
    const passwordFile = admin.generatedPassword
      ? writeFirstAdminPassword(options.dataDir, admin.generatedPassword)
      : undefined;
    options.logger.info({ email: admin.email, password_file: passwordFile }, 'first admin created');
    options.print(firstAdminLine(admin, passwordFile));
  };
}
