import postgres from 'postgres';
import { waitFor } from './ports';
import { PrivatePostgres, type PrivatePostgresOptions } from './private-postgres';

/**
 * A primary and its hot standby, streaming with synchronous commit (a commit is acknowledged once the
 * standby has it on disk, as pg_auto_failover, Patroni's synchronous mode and CloudNativePG's
 * synchronous replicas do), for tests of a database failover: kill the primary, promote the standby.
 * Both are private servers of the test's own; the shared server is never touched.
 */
export class PrivatePostgresPair {
  private constructor(
    readonly primary: PrivatePostgres,
    readonly standby: PrivatePostgres,
  ) {}

  /** `prepare` runs on the primary before the standby copies it (create databases, migrate). */
  static async start(
    prepare: (primary: PrivatePostgres) => Promise<void> = async () => {},
    options: Pick<PrivatePostgresOptions, 'postgresFlags'> = {},
  ): Promise<PrivatePostgresPair> {
    const primary = await PrivatePostgres.start(options);
    try {
      await prepare(primary);
      const standby = await PrivatePostgres.start({ ...options, standbyOf: primary });
      const pair = new PrivatePostgresPair(primary, standby);
      await pair.makeSynchronous();
      return pair;
    } catch (error) {
      await primary.destroy();
      throw error;
    }
  }

  /**
   * `DATABASE_URL` naming both servers, the primary first, as a deployment lists its failover
   * manager's nodes; `target_session_attrs=read-write` keeps every session off the standby.
   */
  url(database = 'postgres'): string {
    const hosts = [this.primary, this.standby].map((server) => `127.0.0.1:${server.port}`).join(',');
    return `postgres://postgres:${this.primary.password}@${hosts}/${database}?target_session_attrs=read-write`;
  }

  /** Ends recovery on the standby and waits until it takes writes. */
  async promoteStandby(): Promise<void> {
    await withServer(this.standby, async (sql) => {
      await sql`select pg_promote(wait => true)`;
      await waitFor(async () => (await sql<{ rw: boolean }[]>`select not pg_is_in_recovery() as rw`)[0]?.rw, {
        timeoutMs: 30_000,
        what: 'the promoted standby to take writes',
      });
    });
  }

  async destroy(): Promise<void> {
    await Promise.all([this.standby.destroy(), this.primary.destroy()]);
  }

  private async makeSynchronous(): Promise<void> {
    await withServer(this.primary, async (sql) => {
      await waitFor(async () => (await sql`select 1 from pg_stat_replication`).length > 0, {
        timeoutMs: 30_000,
        what: 'the standby to stream from the primary',
      });
      await sql`alter system set synchronous_standby_names = '*'`;
      await sql`select pg_reload_conf()`;
      await waitFor(
        async () => (await sql`select 1 from pg_stat_replication where sync_state = 'sync'`).length > 0,
        { timeoutMs: 30_000, what: 'the standby to be synchronous' },
      );
    });
  }
}

async function withServer<T>(server: PrivatePostgres, fn: (sql: postgres.Sql) => Promise<T>): Promise<T> {
  const sql = postgres(server.url(), { max: 1, onnotice: () => {} });
  try {
    return await fn(sql);
  } finally {
    await sql.end();
  }
}
