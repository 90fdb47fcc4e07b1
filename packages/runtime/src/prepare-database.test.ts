import { loadConfig } from '@firebreak/config';
import { users } from '@firebreak/db';
import { captureLogs, PrivatePostgres } from '@firebreak/testing';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { prepareDatabase } from './prepare-database';
import { createRuntime, type Runtime } from './runtime';

let postgres: PrivatePostgres;
let runtime: Runtime;
const logs = captureLogs();

beforeAll(async () => {
  postgres = await PrivatePostgres.start();
  await postgres.stop();
  const config = loadConfig({
    DATABASE_URL: postgres.url(),
    BOOTSTRAP_ADMIN_EMAIL: 'ops@example.com',
    BOOTSTRAP_ADMIN_PASSWORD: 'a-long-password',
  });
  runtime = createRuntime({ name: 'test', config, logger: logs.logger });
});
afterAll(async () => {
  await runtime.close();
  await postgres.destroy();
});

describe('prepareDatabase', () => {
  it('keeps retrying while the database is down, then migrates and creates the first admin', async () => {
    const admins: string[] = [];
    const preparation = await prepareDatabase(
      runtime,
      (admin) => {
        admins.push(admin.email);
      },
      200,
    );
    expect(admins).toEqual([]);
    expect(logs.messages()).toContain('database unavailable at start-up, retrying every 0.2 s');

    await postgres.start();
    await preparation.done;
    expect(admins).toEqual(['ops@example.com']);
    expect(await users.countUsers(runtime.sql)).toBe(1);
    const [row] = await runtime.sql<
      { count: number }[]
    >`select count(*)::int as count from schema_migrations`;
    expect(row!.count).toBeGreaterThanOrEqual(2);
    preparation.stop();
  }, 60_000);
});
