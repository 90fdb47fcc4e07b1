import { mkdtempSync, readFileSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { users } from '@firebreak/db';
import { login } from '@firebreak/services';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { FIRST_ADMIN_PASSWORD_FILE, firstAdminHandover } from './first-admin';
import { prepareDatabase } from './prepare-database';
import { createTestRuntime, type TestRuntime } from './testing';

let runtime: TestRuntime;
let dataDir: string;
beforeEach(async () => {
  runtime = await createTestRuntime();
  dataDir = mkdtempSync(join(tmpdir(), 'firebreak-first-admin-'));
});
afterEach(async () => {
  await runtime.cleanup();
  rmSync(dataDir, { recursive: true, force: true });
});

describe('the first admin of an app started alone', () => {
  it('gets its generated password in a 0600 file under DATA_DIR; stdout and the log get the path', async () => {
    const printed: string[] = [];
    const handover = firstAdminHandover({
      dataDir: join(dataDir, 'nested'),
      logger: runtime.logger,
      print: (line) => printed.push(line),
    });
    const preparation = await prepareDatabase(runtime, handover);
    preparation.stop();

    const file = join(dataDir, 'nested', FIRST_ADMIN_PASSWORD_FILE);
    expect(statSync(file).mode & 0o777).toBe(0o600);
    const password = readFileSync(file, 'utf8').trim();
    expect(password).toMatch(/^[A-Za-z0-9_-]{24}$/);
    expect((await login(runtime.ctx, { email: 'admin@localhost', password })).user.role).toBe('admin');

    expect(printed).toEqual([expect.stringContaining(`First admin: admin@localhost, password in ${file}`)]);
    const everything = JSON.stringify(runtime.logs.lines) + printed.join('\n');
    expect(everything).not.toContain(password);
    expect(runtime.logs.messages()).toContain('first admin created');
  });

  it('replaces a file left from an earlier installation, keeping it private', async () => {
    const file = join(dataDir, FIRST_ADMIN_PASSWORD_FILE);
    writeFileSync(file, 'stale\n', { mode: 0o644 });
    const handover = firstAdminHandover({ dataDir, logger: runtime.logger, print: () => {} });
    (await prepareDatabase(runtime, handover)).stop();
    expect(readFileSync(file, 'utf8')).not.toContain('stale');
    expect(statSync(file).mode & 0o777).toBe(0o600);
  });

  it('is not created when the password cannot be written, so the next start tries again', async () => {
    const notADirectory = join(dataDir, 'a-file');
    writeFileSync(notADirectory, '');
    const handover = firstAdminHandover({ dataDir: notADirectory, logger: runtime.logger, print: () => {} });
    await expect(prepareDatabase(runtime, handover)).rejects.toThrow();
    expect(await users.countUsers(runtime.sql)).toBe(0);
  });
});
