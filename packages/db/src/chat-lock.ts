import type { Queryable, Sql } from './client';
import { withSessionAdvisoryLock } from './session-lock';

/**
 * Runs `work` holding the incident's chat lock, on one connection reserved for it, or returns
 * undefined at once when another job of the same incident holds the lock (the caller re-schedules).
 *
 * Why a session lock on a reserved connection rather than a lock inside one transaction: each post is
 * recorded the moment the chat service accepted it. In a transaction those records would vanish with
 * a later failure of the same job (a 5xx on the third of five posts), and the retry would post the
 * first two again. Why "try" rather than wait: a waiting job would hold a pooled connection for as
 * long as the holder talks to the chat service, and a backlog of one incident's jobs could drain the
 * pool. The lock dies with its connection, so a crashed worker cannot leave it held.
 */
export async function withIncidentChatLock<T>(
  sql: Sql,
  incidentId: string,
  work: (connection: Queryable) => Promise<T>,
): Promise<{ value: T } | undefined> {
  // A connection back in the pool must not keep the lock: withSessionAdvisoryLock ends the session
  // rather than hand back one whose unlock failed.
  return withSessionAdvisoryLock(sql, [`chat:${incidentId}`], work);
}
