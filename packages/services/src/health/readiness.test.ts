import { type AddressInfo, createServer } from 'node:net';
import { createSql, type Sql } from '@firebreak/db';
import { createRedis, type Redis } from '@firebreak/queue';
import { createTestDatabase, PrivateRedis, type TestDatabase } from '@firebreak/testing';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createReadinessProbe } from './readiness';

let db: TestDatabase;
let sql: Sql;
let server: PrivateRedis;
let redis: Redis;

beforeAll(async () => {
  db = await createTestDatabase();
  sql = createSql(db.url, { max: 2 });
  server = await PrivateRedis.start();
  redis = createRedis({ url: server.url }, 'command');
  await new Promise((resolve) => redis.once('ready', resolve));
});
afterAll(async () => {
  redis.disconnect();
  await sql.end();
  await db.drop();
  await server.destroy();
});

describe('readiness probe', () => {
  it('caches the store answer for at most one second, and asks the database every time', async () => {
    let clock = 0;
    const probe = createReadinessProbe({ sql, redis, now: () => clock });
    expect(await probe()).toEqual({ status: 'ok', database: 'ok', redis: 'ok' });

    await server.kill();
    clock = 999;
    expect((await probe()).redis).toBe('ok'); // still within the second
    clock = 1000;
    expect(await probe()).toEqual({ status: 'degraded', database: 'ok', redis: 'error' });

    await server.start();
    await new Promise((resolve) => redis.once('ready', resolve));
    clock = 2000;
    expect((await probe()).redis).toBe('ok');
  });

  it('reports the database as failed when it does not answer in time', async () => {
    // A server that accepts connections and never says a word, like a database host that hangs.
    const blackHole = createServer(() => {});
    await new Promise<void>((resolve) => blackHole.listen(0, '127.0.0.1', resolve));
    const { port } = blackHole.address() as AddressInfo;
    const hanging = createSql(`postgres://nobody@127.0.0.1:${port}/none`, { max: 1 });
    try {
      const probe = createReadinessProbe({ sql: hanging, redis, databaseTimeoutMs: 100 });
      expect(await probe()).toEqual({ status: 'error', database: 'error', redis: 'ok' });
    } finally {
      await hanging.end({ timeout: 0 });
      blackHole.close();
    }
  });
});
