import { createHash } from 'node:crypto';
import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import type { Sql } from './client';
import { wholeFileChecksums } from './migration-history';

/**
 * Forward-only migrations: `migrations/NNNN_name.sql`, applied in order, each once. A hand-written
 * runner because the job is small and exact: one transaction holding an advisory lock, so processes
 * starting together (several replicas, `pnpm start` beside `pnpm db:migrate`) apply each file once,
 * and a checksum per file, so an edited, already-applied migration is refused instead of silently
 * diverging between installations. The checksum covers the statements, not whole-line `--` comments:
 * a comment may be corrected without stopping every installation that applied the file.
 */

/** Beside a production bundle (`dist/migrations`), else the package's own folder. */
export const migrationsDir = (() => {
  const here = dirname(fileURLToPath(import.meta.url));
  const bundled = join(here, 'migrations');
  return existsSync(bundled) ? bundled : join(here, '..', 'migrations');
})();

export interface Migration {
  version: number;
  name: string;
  sql: string;
  checksum: string;
}

// Any constant works; it only has to be the same in every Firebreak process.
const MIGRATION_LOCK_KEY = 7_305_111_001;

export function readMigrations(dir: string = migrationsDir): Migration[] {
  const files = readdirSync(dir)
    .filter((file) => file.endsWith('.sql'))
    .sort();
  return files.map((file) => {
    const match = /^(\d{4})_([a-z0-9_]+)\.sql$/.exec(file);
    if (!match) throw new Error(`migration file name must look like 0001_name.sql: ${file}`);
    const sql = readFileSync(join(dir, file), 'utf8');
    return {
      version: Number(match[1]),
      name: match[2]!,
      sql,
      checksum: statementsChecksum(sql),
    };
  });
}

/** SHA-256 of the migration without its whole-line `--` comments. */
export function statementsChecksum(sql: string): string {
  const statements = sql
    .split('\n')
    .filter((line) => !line.trimStart().startsWith('--'))
    .join('\n');
  return createHash('sha256').update(statements).digest('hex');
}

/** Whether `stored` is the whole-file checksum an earlier runner recorded for these very statements. */
function isEarlierChecksumOf(migration: Migration, stored: string): boolean {
  const earlier = wholeFileChecksums[migration.version];
  return earlier !== undefined && earlier.file === stored && earlier.statements === migration.checksum;
}

export interface MigrateResult {
  applied: Array<{ version: number; name: string }>;
}

export async function migrate(sql: Sql, migrations: Migration[] = readMigrations()): Promise<MigrateResult> {
  return sql.begin(async (tx) => {
    await tx`select pg_advisory_xact_lock(${MIGRATION_LOCK_KEY})`;
    await tx`
      create table if not exists schema_migrations (
        version integer primary key,
        name text not null,
        checksum text not null,
        applied_at timestamptz not null default now()
      )`;
    const rows = await tx<{ version: number; name: string; checksum: string }[]>`
      select version, name, checksum from schema_migrations order by version`;
    const done = new Map(rows.map((row) => [row.version, row]));
    const applied: MigrateResult['applied'] = [];
    for (const migration of migrations) {
      const previous = done.get(migration.version);
      if (previous) {
        if (previous.checksum !== migration.checksum && isEarlierChecksumOf(migration, previous.checksum)) {
          await tx`
            update schema_migrations set checksum = ${migration.checksum} where version = ${migration.version}`;
        } else if (previous.checksum !== migration.checksum) {
          throw new Error(
            `migration ${migration.version}_${migration.name} was changed after it was applied; ` +
              'migrations are forward-only: add a new one instead',
          );
        }
        continue;
      }
      await tx.unsafe(migration.sql);
      await tx`
        insert into schema_migrations (version, name, checksum)
        values (${migration.version}, ${migration.name}, ${migration.checksum})`;
      applied.push({ version: migration.version, name: migration.name });
    }
    return { applied };
  });
}
