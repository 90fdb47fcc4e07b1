import { createTestDatabase, type TestDatabase } from '@firebreak/testing';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createSql, type Sql } from './client';
import { migrate, readMigrations } from './migrate';

let db: TestDatabase;
let sql: Sql;

beforeAll(async () => {
  db = await createTestDatabase();
  sql = createSql(db.url, { max: 4 });
});
afterAll(async () => {
  await sql.end();
  await db.drop();
});

describe('migrations', () => {
  it('are all applied to the cloned template and re-running applies nothing', async () => {
    const versions = await sql<{ version: number }[]>`select version from schema_migrations order by version`;
    expect(versions.map((v) => v.version)).toEqual(readMigrations().map((m) => m.version));
    expect(await migrate(sql)).toEqual({ applied: [] });
  });

  it('two concurrent runners apply a new migration exactly once', async () => {
    const migrations = [
      ...readMigrations(),
      { version: 9001, name: 'probe', sql: 'create table probe (id int)', checksum: 'probe-v1' },
    ];
    const other = createSql(db.url, { max: 1 });
    try {
      const [a, b] = await Promise.all([migrate(sql, migrations), migrate(other, migrations)]);
      expect([...a.applied, ...b.applied]).toEqual([{ version: 9001, name: 'probe' }]);
    } finally {
      await other.end();
    }
  });

  it('refuses a migration whose file changed after it was applied', async () => {
    const migrations = [
      ...readMigrations(),
      { version: 9001, name: 'probe', sql: 'create table probe (id bigint)', checksum: 'probe-v2' },
    ];
    await expect(migrate(sql, migrations)).rejects.toThrow(/changed after it was applied/);
  });
});

describe('timeline entries', () => {
  it('can be written and read but never updated, deleted or truncated', async () => {
    const [incident] = await sql<{ id: string }[]>`
      insert into incidents (title, severity, source) values ('Disk full', 'high', 'manual') returning id`;
    const [entry] = await sql<{ id: string }[]>`
      insert into timeline_entries (incident_id, type, actor_type, data)
      values (${incident!.id}, 'incident_created', 'system', '{}') returning id`;

    await expect(sql`update timeline_entries set type = 'message' where id = ${entry!.id}`).rejects.toThrow(
      /timeline entries are immutable: UPDATE refused/,
    );
    await expect(sql`delete from timeline_entries where id = ${entry!.id}`).rejects.toThrow(
      /timeline entries are immutable: DELETE refused/,
    );
    await expect(sql`truncate timeline_entries`).rejects.toThrow(/immutable: TRUNCATE refused/);
    await expect(sql`delete from incidents where id = ${incident!.id}`).rejects.toThrow();

    const [row] = await sql<{ type: string }[]>`select type from timeline_entries where id = ${entry!.id}`;
    expect(row?.type).toBe('incident_created');
  });
});

describe('seed data', () => {
  it('has the default routing rule of a fresh installation', async () => {
    const rules = await sql`select priority, match_criteria, actions from routing_rules`;
    expect(rules).toEqual([
      {
        priority: 1000,
        match_criteria: { severity: ['critical', 'warning'] },
        actions: { create_incident: true },
      },
    ]);
  });
});
