import { randomBytes } from 'node:crypto';
import postgres from 'postgres';
import { databaseUrl, templateDatabaseName, testDatabaseAdminUrl } from './env';

export const TEST_DATABASE_PREFIX = 'firebreak_t_';

export interface TestDatabase {
  name: string;
  url: string;
  drop(): Promise<void>;
}

function admin() {
  return postgres(testDatabaseAdminUrl, { max: 1, onnotice: () => {} });
}

/**
 * A fresh database for one test file, cloned from the migrated template (fast: a file copy, no
 * migrations). The name carries its creation time so a crashed run's leftovers can be recognised
 * and removed by the next run's global setup.
 */
export async function createTestDatabase(): Promise<TestDatabase> {
  const name = `${TEST_DATABASE_PREFIX}${Date.now().toString(36)}_${randomBytes(4).toString('hex')}`;
  const sql = admin();
  try {
    await sql.unsafe(`create database "${name}" template "${templateDatabaseName()}"`);
  } finally {
    await sql.end();
  }
  return {
    name,
    url: databaseUrl(testDatabaseAdminUrl, name),
    drop: async () => {
      const dropper = admin();
      try {
        await dropper.unsafe(`drop database if exists "${name}" with (force)`);
      } finally {
        await dropper.end();
      }
    },
  };
}

/** Drops test databases older than `maxAgeMs` (left behind by runs that were killed). */
export async function dropStaleTestDatabases(maxAgeMs: number): Promise<string[]> {
  const sql = admin();
  try {
    const rows = await sql<{ datname: string }[]>`
      select datname from pg_database where starts_with(datname, ${TEST_DATABASE_PREFIX})`;
    const dropped: string[] = [];
    for (const { datname } of rows) {
      const created = Number.parseInt(datname.slice(TEST_DATABASE_PREFIX.length).split('_')[0] ?? '', 36);
      if (Number.isFinite(created) && Date.now() - created > maxAgeMs) {
        await sql.unsafe(`drop database if exists "${datname}" with (force)`);
        dropped.push(datname);
      }
    }
    return dropped;
  } finally {
    await sql.end();
  }
}
