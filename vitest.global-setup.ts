import { createHash } from 'node:crypto';
import { createSql, migrate, readMigrations } from '@firebreak/db';
import { databaseUrl, dropStaleTestDatabases, testDatabaseAdminUrl } from '@firebreak/testing';
import postgres from 'postgres';

/**
 * Builds (once per set of migrations) the template database every test file clones, and removes test
 * databases that killed runs left behind. Runs before any test worker starts, so the environment
 * variable reaches every worker.
 */
export default async function setup(): Promise<void> {
  const migrations = readMigrations();
  const digest = createHash('sha256')
    .update(migrations.map((m) => m.checksum).join(','))
    .digest('hex')
    .slice(0, 12);
  const template = `firebreak_tpl_${digest}`;
  process.env.FIREBREAK_TEST_TEMPLATE_DB = template;

  const admin = postgres(testDatabaseAdminUrl, { max: 1, onnotice: () => {} });
  try {
    const [exists] = await admin`select 1 from pg_database where datname = ${template}`;
    if (!exists) {
      // Build under a temporary name and rename at the end, so a concurrent run never clones a
      // half-migrated template.
      const building = `${template}_build_${process.pid}`;
      await admin.unsafe(`drop database if exists "${building}"`);
      await admin.unsafe(`create database "${building}"`);
      const sql = createSql(databaseUrl(testDatabaseAdminUrl, building), { max: 1 });
      try {
        await migrate(sql, migrations);
      } finally {
        await sql.end();
      }
      try {
        await admin.unsafe(`alter database "${building}" rename to "${template}"`);
      } catch (error) {
        // Another run finished first; theirs is identical.
        await admin.unsafe(`drop database if exists "${building}"`);
        if (!String(error).includes('already exists')) throw error;
      }
    }
    // Templates of other migration sets belong to other checkouts that may be running tests right now
    // (a branch, CI in a clean clone): they are left alone.
  } finally {
    await admin.end();
  }
  await dropStaleTestDatabases(2 * 60 * 60 * 1000);
}
