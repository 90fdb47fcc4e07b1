import { getFreePort, PrivatePostgres, PrivatePostgresPair, waitFor } from '@firebreak/testing';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { createSql, type Sql } from './client';
import { describeDatabaseFailure } from './database-failure';
import { isDatabaseUnavailable } from './errors';
import { pingDatabase } from './health';

// DATABASE_URL may list a failover pair's nodes (docs/decisions.md#postgresql-failover): the pool must
// find the one that takes writes, pass over standbys, say so when there is none, and follow a promotion.
// Every server here is a private one; the shared server is never touched.

const pools: Sql[] = [];
const pool = (url: string, max = 2) => {
  const sql = createSql(url, { max, connectTimeoutSeconds: 2 });
  pools.push(sql);
  return sql;
};
afterEach(async () => {
  await Promise.all(pools.splice(0).map((sql) => sql.end({ timeout: 1 })));
});

const hostsUrl = (ports: number[], password: string, query = '') =>
  `postgres://postgres:${password}@${ports.map((port) => `127.0.0.1:${port}`).join(',')}/postgres${query}`;

async function serverPort(sql: Sql): Promise<number> {
  const [row] = await sql<{ port: number }[]>`select inet_server_port() as port`;
  return row!.port;
}

describe('a pool on a primary and its standby', () => {
  let pair: PrivatePostgresPair;
  beforeAll(async () => {
    pair = await PrivatePostgresPair.start();
  });
  afterAll(() => pair?.destroy());

  it('refuses a query when every host refuses, rather than trying them over and over', async () => {
    const sql = pool(hostsUrl([await getFreePort(), await getFreePort()], 'x'));
    const refusal = await sql`select 1`.then(
      () => 'answered',
      (error: unknown) => error,
    );
    expect(isDatabaseUnavailable(refusal)).toBe(true);
    expect((refusal as { code: string }).code).toBe('ECONNREFUSED');
  });

  it('goes on to the next host when the first is down', async () => {
    const sql = pool(hostsUrl([await getFreePort(), pair.primary.port], pair.primary.password));
    expect(await serverPort(sql)).toBe(pair.primary.port);
  });

  it('passes over a standby listed first and writes on the primary', async () => {
    const sql = pool(hostsUrl([pair.standby.port, pair.primary.port], pair.primary.password));
    await sql`create table if not exists written_on_primary (id int)`;
    expect(await serverPort(sql)).toBe(pair.primary.port);
  });

  it('with only a standby left, refuses as "no read-write server"', async () => {
    const sql = pool(hostsUrl([pair.standby.port], pair.primary.password));
    const refusal = await sql`select 1`.then(
      () => 'answered',
      (error: unknown) => error,
    );
    expect(isDatabaseUnavailable(refusal)).toBe(true);
    expect(describeDatabaseFailure(refusal).reason).toBe('no read-write server');
  });
});

describe('a server made read-only under open connections', () => {
  let first: PrivatePostgres;
  let second: PrivatePostgres;
  beforeAll(async () => {
    [first, second] = await Promise.all([
      PrivatePostgres.start({ password: 'pair' }),
      PrivatePostgres.start({ password: 'pair' }),
    ]);
  });
  afterAll(() => Promise.all([first?.destroy(), second?.destroy()]));

  it('closes the connection whose write was refused; the next write goes to the writable host', async () => {
    const sql = pool(hostsUrl([first.port, second.port], 'pair'), 1);
    await sql`create table writes (id int)`;
    expect(await serverPort(sql)).toBe(first.port);
    // What a failover manager does to a server it no longer trusts with writes.
    await sql`alter system set default_transaction_read_only = on`;
    await sql`select pg_reload_conf()`;
    // The backend takes the new setting a moment after the reload (at its next command).
    await waitFor(
      async () => (await sql`show default_transaction_read_only`)[0]?.default_transaction_read_only === 'on',
      {
        what: 'the reload to reach the connection',
      },
    );

    const refused = await sql`insert into writes values (1)`.catch((error: unknown) => error);
    expect(describeDatabaseFailure(refused).reason).toBe('server is read-only');
    await sql`create table writes (id int)`;
    await sql`insert into writes values (2)`;
    expect(await serverPort(sql)).toBe(second.port);
  });

  it('the health probe says "server is read-only" rather than ok', async () => {
    const sql = pool(hostsUrl([first.port], 'pair', '?target_session_attrs=primary'), 1);
    const probe = await pingDatabase(sql).then(
      () => 'ok',
      (error: unknown) => describeDatabaseFailure(error).reason,
    );
    expect(probe).toBe('server is read-only');
  });
});

describe('a failover: the primary killed, the standby promoted', () => {
  let pair: PrivatePostgresPair;
  beforeAll(async () => {
    pair = await PrivatePostgresPair.start();
  });
  afterAll(() => pair?.destroy());

  it('the pool and its LISTEN follow the new primary without a restart', async () => {
    const sql = pool(pair.url());
    const heard: string[] = [];
    await sql.listen('failover_test', (payload) => heard.push(payload));
    await sql`create table alerts_before (id int)`;
    await sql`insert into alerts_before values (1)`; // acknowledged: on the standby's disk too

    await pair.primary.kill();
    const during = await sql`select 1`.then(
      () => 'answered',
      (error: unknown) => error,
    );
    expect(isDatabaseUnavailable(during)).toBe(true);
    await pair.promoteStandby();

    await waitFor(async () => (await sql`insert into alerts_before values (2)`.then(() => true)) || false, {
      timeoutMs: 20_000,
      what: 'a write on the promoted standby',
    });
    expect(await serverPort(sql)).toBe(pair.standby.port);
    expect((await sql`select id from alerts_before order by id`).map((row) => row.id)).toEqual([1, 2]);
    // The listener subscribed again on its own; NOTIFY until it hears one (it may re-subscribe a
    // moment after the pool's first write).
    await waitFor(
      async () => {
        await sql`select pg_notify('failover_test', 'after')`;
        return heard.includes('after');
      },
      { timeoutMs: 20_000, intervalMs: 200, what: 'the listener to hear the new primary' },
    );
  });
});

describe('a LISTEN made while the database is down', () => {
  let server: PrivatePostgres;
  beforeAll(async () => {
    server = await PrivatePostgres.start();
    await server.stop();
  });
  afterAll(() => server?.destroy());

  it('is made once the database is up, without being asked again (the worker listens at start)', async () => {
    const sql = pool(server.url());
    const heard: string[] = [];
    const first = await sql
      .listen('started_while_down', (payload) => heard.push(payload))
      .then(
        () => 'listening',
        (error: { code?: string }) => error.code,
      );
    expect(first).toBe('ECONNREFUSED');
    await server.start();
    await waitFor(
      async () => {
        await sql`select pg_notify('started_while_down', 'up')`;
        return heard.includes('up');
      },
      { timeoutMs: 20_000, intervalMs: 200, what: 'the listener to hear the server once it is up' },
    );
  });
});
