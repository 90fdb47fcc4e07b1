/** Where the shared services of this machine (and CI) are; overridable for other set-ups. */
export const testDatabaseAdminUrl =
  process.env.FIREBREAK_TEST_DATABASE_URL ?? 'postgres://postgres@127.0.0.1:5432/postgres';
export const testRedisUrl = process.env.FIREBREAK_TEST_REDIS_URL ?? 'redis://127.0.0.1:6379';

/** Set by the vitest global setup: the migrated database every test database is cloned from. */
export function templateDatabaseName(): string {
  const name = process.env.FIREBREAK_TEST_TEMPLATE_DB;
  if (!name)
    throw new Error('FIREBREAK_TEST_TEMPLATE_DB is not set: run tests through vitest (global setup)');
  return name;
}

export function databaseUrl(adminUrl: string, database: string): string {
  const url = new URL(adminUrl);
  url.pathname = `/${database}`;
  return url.toString();
}
