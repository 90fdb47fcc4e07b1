// The embedded PostgreSQL from a checkout the `postgres` user cannot enter (a clone under /root, or a
// 0700 `mktemp -d`). Run as root, the server runs as `postgres`: it must still start, from binaries
// and data placed where it can reach them, or stop at once with one line saying what to do. As any
// other user the server runs as that user and nothing is closed to it, so these run as root only.
import { execFile } from 'node:child_process';
import {
  chmodSync,
  lstatSync,
  mkdirSync,
  mkdtempSync,
  readdirSync,
  rmSync,
  symlinkSync,
  writeFileSync,
} from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { EmbeddedPostgresError, installedBinariesDir } from '@firebreak/embedded-postgres';
import { checkPoolSize } from '@firebreak/runtime';
import { captureLogs } from '@firebreak/testing';
import postgres from 'postgres';
import { afterAll, describe, expect, it } from 'vitest';
import { type EmbeddedStartOptions, startEmbeddedPostgres } from './embedded-postgres';

const repoRoot = resolve(import.meta.dirname, '../../..');
const made: string[] = [];
afterAll(() => {
  for (const dir of made) rmSync(dir, { recursive: true, force: true });
});

/** A directory closed to everyone but its owner, as `mktemp -d` makes it. */
function closedDir(): string {
  const dir = mkdtempSync(join(tmpdir(), 'firebreak-closed-'));
  chmodSync(dir, 0o700);
  made.push(dir);
  return dir;
}

function openDir(): string {
  const dir = mkdtempSync(join(tmpdir(), 'firebreak-open-'));
  chmodSync(dir, 0o755);
  made.push(dir);
  return dir;
}

/** A checkout under `closed`: its binaries are reachable only through the closed directory. */
function closedCheckout(closed: string): EmbeddedStartOptions {
  const binariesDir = join(closed, 'checkout', 'postgres-binaries');
  mkdirSync(join(closed, 'checkout'), { recursive: true });
  symlinkSync(installedBinariesDir(), binariesDir);
  return { binariesDir, binaryCacheDir: openDir(), relocationRoot: openDir() };
}

describe.runIf(process.getuid?.() === 0)('the embedded PostgreSQL in a checkout closed to its user', () => {
  it('starts from copied binaries with its data relocated, answers queries, and reuses it on the next start', async () => {
    const closed = closedDir();
    const placement = closedCheckout(closed);
    const dataDir = join(closed, 'checkout', '.data');
    const logs = captureLogs();

    const first = await startEmbeddedPostgres(dataDir, logs.logger, placement);
    const sql = postgres(first.url, { max: 1, onnotice: () => {} });
    try {
      const [row] = await sql`select current_user as name, current_setting('data_directory') as dir`;
      expect(row!.name).toBe('postgres');
      expect(row!.dir.startsWith(placement.relocationRoot!)).toBe(true);
      await sql`create table kept (note text)`;
      await sql`insert into kept values ('still here')`;
    } finally {
      await sql.end();
      await first.stop();
    }
    expect(lstatSync(join(dataDir, 'postgres')).isSymbolicLink()).toBe(true);
    expect(logs.messages().join('\n')).toContain(
      `the postgres user cannot enter DATA_DIR: the embedded PostgreSQL keeps its data in ${placement.relocationRoot}/`,
    );

    const second = await startEmbeddedPostgres(dataDir, logs.logger, placement);
    const again = postgres(second.url, { max: 1 });
    try {
      expect(await again`select note from kept`).toEqual([{ note: 'still here' }]);
    } finally {
      await again.end();
      await second.stop();
    }

    // DATA_DIR deleted (its password with it) but not the relocated data: said, not half-reused.
    rmSync(dataDir, { recursive: true });
    await expect(startEmbeddedPostgres(dataDir, logs.logger, placement)).rejects.toThrow(
      `holds the embedded PostgreSQL data of an earlier ${dataDir}/postgres, whose link to it is gone: remove it`,
    );
  });

  it('stops at once with one line saying what to do when its data already sits behind the closed directory', async () => {
    const closed = closedDir();
    const dataDir = join(closed, 'checkout', '.data');
    // Data made before the directory was closed: it is never moved behind the operator's back.
    mkdirSync(join(dataDir, 'postgres'), { recursive: true });
    writeFileSync(join(dataDir, 'postgres', 'PG_VERSION'), '18\n');
    const error = await startEmbeddedPostgres(dataDir, captureLogs().logger, closedCheckout(closed)).catch(
      (thrown: unknown) => thrown,
    );
    expect(error).toBeInstanceOf(EmbeddedPostgresError);
    expect((error as Error).message).toBe(
      `the embedded PostgreSQL runs as the "postgres" user (PostgreSQL refuses root), which cannot reach its data in ` +
        `${dataDir}/postgres: ${closed} (mode 0700) is closed to it. Open that directory to it (chmod o+x), move ` +
        'the data and set DATA_DIR to a directory it can enter, or run Firebreak as another user.',
    );

    // What `pnpm start` shows: that line, once, and an exit; no stack trace, no wait.
    const env: NodeJS.ProcessEnv = { ...process.env, DATA_DIR: dataDir, PORT: '0' };
    delete env.DATABASE_URL;
    delete env.DATABASE_URL_FILE;
    const result = await new Promise<{ code: number | null; output: string }>((done) => {
      execFile(
        join(repoRoot, 'node_modules/.bin/tsx'),
        ['apps/server/src/main.ts'],
        { cwd: repoRoot, env },
        (e, stdout, stderr) =>
          done({ code: e ? ((e as { code?: number }).code ?? null) : 0, output: `${stdout}${stderr}` }),
      );
    });
    expect(result.code).toBe(1);
    const lines = result.output.trim().split('\n');
    expect(lines).toHaveLength(1);
    expect(JSON.parse(lines[0]!)).toMatchObject({
      level: 'fatal',
      msg: expect.stringContaining(`start-up failed: the embedded PostgreSQL runs as the "postgres" user`),
    });
    expect(JSON.parse(lines[0]!)).not.toHaveProperty('err');
  });
});

describe.runIf(process.getuid?.() === 0)(
  "the embedded PostgreSQL started as root takes no one else's directory",
  () => {
    it('refuses to create its database in a linked directory that holds other files, and leaves it as it was', async () => {
      const dataDir = join(openDir(), '.data');
      const someoneElses = openDir();
      writeFileSync(join(someoneElses, 'notes.txt'), 'mine\n');
      chmodSync(someoneElses, 0o755);
      mkdirSync(dataDir);
      symlinkSync(someoneElses, join(dataDir, 'postgres'));
      await expect(startEmbeddedPostgres(dataDir, captureLogs().logger)).rejects.toThrow(
        `${someoneElses} is not an empty directory and holds no PostgreSQL data (no PG_VERSION), so the embedded ` +
          'PostgreSQL will not create its database there',
      );
      const after = lstatSync(someoneElses);
      expect(after.mode & 0o777).toBe(0o755);
      expect(after.uid).toBe(0);
    });

    it('refuses a relocation directory that others could have prepared', async () => {
      const closed = closedDir();
      const placement = closedCheckout(closed);
      chmodSync(placement.relocationRoot!, 0o777);
      await expect(
        startEmbeddedPostgres(join(closed, 'checkout', '.data'), captureLogs().logger, placement),
      ).rejects.toThrow(
        `${placement.relocationRoot} is not a directory owned by this user and closed to writes`,
      );
    });

    it('leaves no password file behind after creating its database', async () => {
      // A temporary directory of its own, so servers other test files start meanwhile are not counted.
      const temporary = openDir();
      const dataDir = join(openDir(), '.data');
      const previous = process.env.TMPDIR;
      process.env.TMPDIR = temporary;
      try {
        const database = await startEmbeddedPostgres(dataDir, captureLogs().logger);
        await database.stop();
      } finally {
        if (previous === undefined) delete process.env.TMPDIR;
        else process.env.TMPDIR = previous;
      }
      expect(readdirSync(temporary)).toEqual([]);
    });
  },
);

describe('the embedded PostgreSQL and the start-up pool-size check', () => {
  it('sizes max_connections for the pool it serves, so the check has nothing to warn about', async () => {
    const logs = captureLogs();
    const database = await startEmbeddedPostgres(join(openDir(), '.data'), logs.logger, { poolSize: 25 });
    const sql = postgres(database.url, { max: 1 });
    try {
      const [row] = await sql`select current_setting('max_connections')::int as max`;
      expect(row!.max).toBe(125);
      await checkPoolSize(sql, 25, logs.logger);
      expect(logs.lines.filter((line) => line.level === 'warn')).toEqual([]);
    } finally {
      await sql.end();
      await database.stop();
    }
  });
});
