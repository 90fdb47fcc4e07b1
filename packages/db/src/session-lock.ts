import type { Queryable, Sql } from './client';

/**
 * Runs `work` on one connection reserved for it, holding the session-level advisory lock of `key`
 * (one text, or two for the two-key form; each hashed with `hashtext`), or returns undefined at once
 * when another session holds that lock. Why a session lock, and why "try": see the callers
 * (chat-lock.ts, outgoing-webhooks.ts).
 *
 * The connection goes back to the pool only when it is known to be clean: lock given back, no failed
 * statement. When the unlock fails (a failed statement left the connection in an aborted transaction,
 * the statement was cancelled, the link broke), the session may still hold the lock, and a pooled
 * connection holding it would keep every later job of that key out, for as long as the connection
 * lives. postgres.js has no way to close one reserved connection, so the session is ended from the
 * server side instead: `pg_terminate_backend` of its pid, sent through another pooled connection (the
 * reserved one may not run anything any more), and only while that pid still holds an advisory lock
 * (a pid reused by a newer session is left alone). The reserved connection is then never released:
 * handing back a connection whose socket closed would put a dead connection among the open ones
 * (postgres.js throws outside any promise on its next use). A closed reserved connection returns to
 * the pool's closed ones by itself, and is reconnected when needed.
 */
export async function withSessionAdvisoryLock<T>(
  sql: Sql,
  key: readonly [string] | readonly [string, string],
  work: (connection: Queryable) => Promise<T>,
): Promise<{ value: T } | undefined> {
  const connection = await sql.reserve();
  const args =
    key.length === 1 ? connection`hashtext(${key[0]})` : connection`hashtext(${key[0]}), hashtext(${key[1]})`;
  let clean = false;
  try {
    // A statement this simple fails only when the link broke: then the connection is not handed back.
    const [row] = await connection<{ locked: boolean; pid: number }[]>`
      select pg_try_advisory_lock(${args}) as locked, pg_backend_pid() as pid`;
    if (!row?.locked) {
      clean = true;
      return undefined;
    }
    try {
      return { value: await work(connection) };
    } finally {
      try {
        await connection`select pg_advisory_unlock(${args})`;
        clean = true;
      } catch {
        // Best effort: if the database cannot be reached either, it ends the session itself when it
        // notices the connection is gone. The error of `work`, if any, is the one that matters.
        await endSessionHoldingLocks(sql, row.pid).catch(() => undefined);
      }
    }
  } finally {
    if (clean) connection.release();
  }
}

async function endSessionHoldingLocks(sql: Sql, pid: number): Promise<void> {
  await sql`
    select pg_terminate_backend(${pid})
    where exists (select 1 from pg_locks where pid = ${pid} and locktype = 'advisory' and granted)`;
}
