import { randomBytes } from 'node:crypto';
import { pagingSecrets, type Sql } from '@firebreak/db';

const keys = new WeakMap<Sql, Promise<Buffer>>();

/**
 * The installation's paging key (docs/paging.md#acknowledge-links): 32 random bytes made by the first
 * process that needs them and kept in the database, so every process of the deployment signs and checks
 * with the same key and no operator has to set one. Read once per pool; never logged.
 */
export function pagingKey(sql: Sql): Promise<Buffer> {
  let key = keys.get(sql);
  if (!key) {
    key = pagingSecrets.ensureLinkKey(sql, randomBytes(32));
    key.catch(() => keys.delete(sql));
    keys.set(sql, key);
  }
  return key;
}
