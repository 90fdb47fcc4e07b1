import { createTestDatabase, type TestDatabase } from '@firebreak/testing';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createSql, type Sql } from './client';
import { migrate, readMigrations, statementsChecksum } from './migrate';
import { wholeFileChecksums } from './migration-history';

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

describe('migration checksums', () => {
  it('ignore whole-line comments but not statements', () => {
    const sql = 'create table t (id int);\n';
    expect(statementsChecksum(`-- why t exists\n${sql}`)).toBe(statementsChecksum(`-- reworded\n${sql}`));
    expect(statementsChecksum('create table t (id bigint);\n')).not.toBe(statementsChecksum(sql));
  });

  it('each recorded whole-file checksum belongs to the statements the file holds today', () => {
    const current = new Map(readMigrations().map((m) => [m.version, m.checksum]));
    for (const [version, earlier] of Object.entries(wholeFileChecksums)) {
      expect(current.get(Number(version)), `migration ${version}`).toBe(earlier.statements);
    }
  });

  it('an installation holding the whole-file checksum of a migration starts, and stores the new one', async () => {
    const first = readMigrations()[0]!;
    const earlier = wholeFileChecksums[first.version]!;
    await sql`update schema_migrations set checksum = ${earlier.file} where version = ${first.version}`;
    expect(await migrate(sql)).toEqual({ applied: [] });
    const [row] = await sql<{ checksum: string }[]>`
      select checksum from schema_migrations where version = ${first.version}`;
    expect(row!.checksum).toBe(first.checksum);
  });

  it('refuses a stored checksum that is neither the current nor a recorded earlier one', async () => {
    const first = readMigrations()[0]!;
    await sql`update schema_migrations set checksum = ${'0'.repeat(64)} where version = ${first.version}`;
    try {
      await expect(migrate(sql)).rejects.toThrow(/changed after it was applied/);
    } finally {
      await sql`update schema_migrations set checksum = ${first.checksum} where version = ${first.version}`;
    }
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
