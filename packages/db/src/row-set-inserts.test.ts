import { randomUUID } from 'node:crypto';
import { createTestDatabase, type TestDatabase } from '@firebreak/testing';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createSql, type Sql } from './client';
import { insertOutboxRows, type OutboxJob } from './outbox';
import { timelineInsertSql } from './timeline';

let db: TestDatabase;
// One connection, so its prepared statements are the ones `pg_prepared_statements` shows.
let sql: Sql;

beforeAll(async () => {
  db = await createTestDatabase();
  sql = createSql(db.url, { max: 1 });
});
afterAll(async () => {
  await sql.end();
  await db.drop();
});

const openChannel = (incidentId: string, availableAt?: Date): OutboxJob => ({
  name: 'chat.open_channel',
  payload: { incident_id: incidentId },
  orderingKey: incidentId,
  ...(availableAt ? { availableAt } : {}),
});

/** How many statements this connection has prepared that begin with `start` (after white space). */
async function preparedStarting(start: string): Promise<number> {
  const [row] = await sql<{ count: number }[]>`
    select count(*)::int as count from pg_prepared_statements
    where starts_with(regexp_replace(statement, '^[[:space:]]+', ''), ${start})`;
  return row!.count;
}

describe('inserts of a varying number of rows', () => {
  it('write outbox rows in the order given, with their available time or now, under one statement text', async () => {
    const incidents = Array.from({ length: 5 }, () => randomUUID());
    const later = new Date(Date.now() + 60_000);
    await insertOutboxRows(sql, [openChannel(incidents[0]!)]);
    await insertOutboxRows(sql, [
      openChannel(incidents[1]!),
      openChannel(incidents[2]!, later),
      openChannel(incidents[3]!),
      openChannel(incidents[4]!),
    ]);
    const rows = await sql<{ ordering_key: string; payload: { incident_id: string }; later: boolean }[]>`
      select ordering_key, payload, available_at > now() + interval '30 seconds' as later
      from outbox order by id`;
    expect(rows.map((row) => row.ordering_key)).toEqual(incidents);
    expect(rows.map((row) => row.payload.incident_id)).toEqual(incidents);
    expect(rows.map((row) => row.later)).toEqual([false, false, true, false, false]);
    expect(await preparedStarting('insert into outbox')).toBe(1);
  });

  it('write timeline entries in the order given under one statement text', async () => {
    const incident = randomUUID();
    await sql`insert into incidents (id, title, severity, source) values (${incident}, 'Disk full', 'critical', 'manual')`;
    const at = new Date('2026-12-05T12:00:00.000Z');
    const entry = (type: 'message' | 'incident_created', n: number) => ({
      id: randomUUID(),
      incidentId: incident,
      type,
      actor: { type: 'system' as const },
      data: { n, nested: { text: `entry ${n}` } },
      at,
    });
    const written = [entry('incident_created', 0), entry('message', 1), entry('message', 2)];
    await sql`${timelineInsertSql(sql, written.slice(0, 1))}`;
    await sql`${timelineInsertSql(sql, written.slice(1))}`;
    const rows = await sql<{ id: string; type: string; data: unknown; created_at: Date }[]>`
      select id, type, data, created_at from timeline_entries where incident_id = ${incident} order by seq`;
    expect(rows.map((row) => row.id)).toEqual(written.map((e) => e.id));
    expect(rows.map((row) => row.data)).toEqual(written.map((e) => e.data));
    expect(rows.every((row) => row.created_at.getTime() === at.getTime())).toBe(true);
    expect(await preparedStarting('insert into timeline_entries')).toBe(1);
  });
});
