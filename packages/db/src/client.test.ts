import { getFreePort } from '@firebreak/testing';
import { afterEach, describe, expect, it } from 'vitest';
import { createSql, MAX_RECONNECT_DELAY_SECONDS, reconnectDelaySeconds, type Sql } from './client';

// While the server refuses connections, a query must be refused within a short, fixed wait however
// many attempts failed before it (docs/decisions.md#a-database-outage-answers-at-once). postgres.js's
// own back-off grew to 20 s per attempt.
let sql: Sql | undefined;
afterEach(async () => {
  await sql?.end({ timeout: 1 });
  sql = undefined;
});

/** How long `query` took to settle, and whether it was refused as a connection error. */
async function timedRefusal(query: () => Promise<unknown>): Promise<{ ms: number; code: unknown }> {
  const started = performance.now();
  const code = await query().then(
    () => 'answered',
    (error: { code?: unknown }) => error.code,
  );
  return { ms: performance.now() - started, code };
}

describe('createSql while nothing listens at the address', () => {
  it('refuses each query within the longest reconnect wait, however many attempts failed before', async () => {
    sql = createSql(`postgres://postgres@127.0.0.1:${await getFreePort()}/firebreak`, { max: 2 });
    const pool = sql;
    const bound = MAX_RECONNECT_DELAY_SECONDS * 1000 + 250; // the wait, then a refused connect on loopback
    for (let attempt = 0; attempt < 15; attempt++) {
      const { ms, code } = await timedRefusal(() => pool`select 1`);
      expect(code).toBe('ECONNREFUSED');
      expect(ms, `attempt ${attempt}`).toBeLessThanOrEqual(bound);
    }
  });

  it('refuses a burst ten times the pool within ten rounds of that wait', async () => {
    sql = createSql(`postgres://postgres@127.0.0.1:${await getFreePort()}/firebreak`, { max: 2 });
    const pool = sql;
    // Many failed attempts first, as in an outage that has lasted a while.
    for (let attempt = 0; attempt < 10; attempt++) await pool`select 1`.catch(() => {});
    const answers = await Promise.all(Array.from({ length: 20 }, () => timedRefusal(() => pool`select 1`)));
    expect(new Set(answers.map((a) => a.code))).toEqual(new Set(['ECONNREFUSED']));
    const slowest = Math.max(...answers.map((a) => a.ms));
    expect(slowest).toBeLessThanOrEqual(10 * (MAX_RECONNECT_DELAY_SECONDS * 1000 + 100));
  });
});

describe('reconnectDelaySeconds', () => {
  it('starts near 10 ms and never exceeds the longest wait', () => {
    expect(reconnectDelaySeconds(0)).toBeLessThanOrEqual(0.01);
    for (const failures of [1, 5, 8, 20, 1000]) {
      expect(reconnectDelaySeconds(failures)).toBeLessThanOrEqual(MAX_RECONNECT_DELAY_SECONDS);
      expect(reconnectDelaySeconds(failures)).toBeGreaterThan(0);
    }
  });
});
