import { createTestDatabase, type TestDatabase } from '@firebreak/testing';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createSql, type Sql } from './client';
import { migrate, readMigrations } from './migrate';

// Migration 0024 records which alert opened each incident (docs/analytics.md). For incidents opened
// before it, it names the alert of the incident's first `alert_linked` entry, else its earliest alert by
// `started_at`; incidents a person opened keep none. It runs here on data written with the schema
// before it: an empty database migrated to 0023, then the rest.
let db: TestDatabase;
let sql: Sql;

beforeAll(async () => {
  db = await createTestDatabase();
  sql = createSql(db.url, { max: 2 });
  await sql.unsafe('drop schema public cascade; create schema public');
  await migrate(
    sql,
    readMigrations().filter((m) => m.version < 24),
  );
});
afterAll(async () => {
  await sql.end();
  await db.drop();
});

const refired = '11111111-1111-4111-8111-111111111111';
const unlinked = '22222222-2222-4222-8222-222222222222';
const manual = '33333333-3333-4333-8333-333333333333';
const opener = 'aaaaaaaa-0000-4000-8000-000000000001';
const joiner = 'aaaaaaaa-0000-4000-8000-000000000002';
const only = 'aaaaaaaa-0000-4000-8000-000000000003';
const attached = 'aaaaaaaa-0000-4000-8000-000000000004';

describe('migration 0024 (the alert that opened an incident)', () => {
  it('takes the first linked alert, else the earliest started, and none for a person-opened incident', async () => {
    await sql`
      insert into incidents (id, title, severity, status, source)
      values (${refired}, 'a', 'critical', 'triggered', 'alert'), (${unlinked}, 'b', 'high', 'triggered', 'alert'),
             (${manual}, 'c', 'low', 'triggered', 'manual')`;
    // The opener fired again since, so it now starts after the alert that joined.
    await sql`
      insert into alerts (id, integration, title, started_at, incident_id) values
        (${opener}, 'generic', 'opener', '2026-01-01T10:30:00Z', ${refired}),
        (${joiner}, 'generic', 'joiner', '2026-01-01T10:05:00Z', ${refired}),
        (${only}, 'generic', 'only', '2026-01-01T11:00:00Z', ${unlinked}),
        (${attached}, 'generic', 'attached', '2026-01-01T09:00:00Z', ${manual})`;
    await sql`
      insert into timeline_entries (incident_id, type, actor_type, data) values
        (${refired}, 'incident_created', 'system', '{}'),
        (${refired}, 'alert_linked', 'system', ${sql.json({ alert_id: opener })}),
        (${refired}, 'alert_linked', 'system', ${sql.json({ alert_id: joiner })})`;

    const { applied } = await migrate(sql);
    expect(applied.map((m) => m.version)).toContain(24);

    const rows = await sql<{ id: string; opened_by_alert_id: string | null }[]>`
      select id, opened_by_alert_id from incidents order by id`;
    expect(rows).toEqual([
      { id: refired, opened_by_alert_id: opener },
      { id: unlinked, opened_by_alert_id: only },
      { id: manual, opened_by_alert_id: null },
    ]);
    const [step] = await sql<{ column_name: string }[]>`
      select column_name from information_schema.columns
      where table_name = 'escalation_steps' and column_name = 'time_zone'`;
    expect(step?.column_name).toBe('time_zone');
  });
});
