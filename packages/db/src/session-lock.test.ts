import { createTestDatabase, type TestDatabase } from '@firebreak/testing';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { withIncidentChatLock } from './chat-lock';
import { createSql, type Queryable, type Sql } from './client';
import { withWebhookLineLock } from './outgoing-webhooks';

// The session locks of the chat jobs and the outgoing-webhook lines (session-lock.ts): a connection
// whose unlock failed must not go back to the pool still holding the lock.
let db: TestDatabase;
let sql: Sql;
let other: Sql;
beforeEach(async () => {
  db = await createTestDatabase();
  sql = createSql(db.url, { max: 2 });
  other = createSql(db.url, { max: 1 }); // another process's pool
});
afterEach(async () => {
  await sql.end();
  await other.end();
  await db.drop();
});

const WEBHOOK = '00000000-0000-4000-8000-00000000000a';
const INCIDENT = '00000000-0000-4000-8000-00000000000b';

/** Leaves the connection in an aborted transaction: every later statement on it fails, the unlock too. */
async function breakTheConnection(connection: Queryable): Promise<string> {
  await connection.unsafe('begin');
  await connection.unsafe('select 1/0').catch(() => undefined);
  return 'done';
}

async function othersCanLock(lock: string): Promise<boolean> {
  const [row] = await other.unsafe<{ locked: boolean }[]>(`select ${lock} as locked`);
  if (row!.locked) await other.unsafe(`select pg_advisory_unlock_all()`);
  return row!.locked;
}

async function poolAnswers(): Promise<number[]> {
  const answers: number[] = [];
  for (let i = 0; i < 4; i++) answers.push((await sql<{ one: number }[]>`select 1 as one`)[0]!.one);
  return answers;
}

describe('a session lock whose unlock fails', () => {
  it('webhook line: the session is ended, the lock is free, the pool keeps working', async () => {
    expect(await withWebhookLineLock(sql, WEBHOOK, INCIDENT, breakTheConnection)).toEqual({ value: 'done' });
    expect(await othersCanLock(`pg_try_advisory_lock(hashtext('${WEBHOOK}'), hashtext('${INCIDENT}'))`)).toBe(
      true,
    );
    expect(await poolAnswers()).toEqual([1, 1, 1, 1]);
    // And the line can be taken again through the same pool.
    expect(await withWebhookLineLock(sql, WEBHOOK, INCIDENT, async () => 'again')).toEqual({
      value: 'again',
    });
  });

  it('chat: the same', async () => {
    expect(await withIncidentChatLock(sql, INCIDENT, breakTheConnection)).toEqual({ value: 'done' });
    expect(await othersCanLock(`pg_try_advisory_lock(hashtext('chat:${INCIDENT}'))`)).toBe(true);
    expect(await poolAnswers()).toEqual([1, 1, 1, 1]);
  });

  it('a clean run gives the lock back and the connection to the pool; a held lock answers undefined', async () => {
    const inner = await withWebhookLineLock(sql, WEBHOOK, INCIDENT, async () => {
      const [row] = await other<{ pids: number }[]>`
        select count(*)::int as pids from pg_locks
        where locktype = 'advisory' and granted
          and database = (select oid from pg_database where datname = current_database())`;
      return row!.pids;
    });
    expect(inner).toEqual({ value: 1 });
    const [held] = await other<{ locked: boolean }[]>`
      select pg_try_advisory_lock(hashtext(${WEBHOOK}), hashtext(${INCIDENT})) as locked`;
    expect(held!.locked).toBe(true);
    expect(await withWebhookLineLock(sql, WEBHOOK, INCIDENT, async () => 'never')).toBeUndefined();
    await other`select pg_advisory_unlock_all()`;
    expect(await poolAnswers()).toEqual([1, 1, 1, 1]);
  });
});
