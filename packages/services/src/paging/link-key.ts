import { randomBytes } from 'node:crypto';
import { pagingSecrets, type Queryable, type Sql } from '@firebreak/db';

const keys = new WeakMap<Sql, Promise<Buffer>>();

/**
 * The installation's paging key (docs/paging.md#acknowledge-links): 32 random bytes made by the first
 * process that needs them and kept in the database, so every process of the deployment signs and checks
 * with the same key and no operator has to set one. Read once per pool; never logged.
 *
 * `connection` is where the first read goes when it is not the pool itself: a caller that already holds
 * one of the pool's connections (a chat job holding its incident's chat lock) reads through it, since
 * waiting for a second connection of the same pool can wait for ever once every connection is held by
 * such callers.
 */
export function pagingKey(sql: Sql, connection: Queryable = sql): Promise<Buffer> {
  let key = keys.get(sql);
  if (!key) {
    key = pagingSecrets.ensureLinkKey(connection, randomBytes(32));
    key.catch(() => keys.delete(sql));
    keys.set(sql, key);
  }
  return key;
}
