import { createTestDatabase, type TestDatabase } from '@firebreak/testing';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createSql, type Sql } from './client';
import { migrate, readMigrations } from './migrate';
import { insertPostmortem, landAiDraft } from './postmortems';

// Migration 0022 turns the stored AI drafts into documents (docs/postmortems.md). It runs here on data
// written with the schema before it: an empty database migrated to 0021, then the rest. It is additive:
// replicas on the previous release keep writing and reading the columns they know during an upgrade.
let db: TestDatabase;
let sql: Sql;

beforeAll(async () => {
  db = await createTestDatabase();
  sql = createSql(db.url, { max: 2 });
  await sql.unsafe('drop schema public cascade; create schema public');
  await migrate(
    sql,
    readMigrations().filter((m) => m.version < 22),
  );
});
afterAll(async () => {
  await sql.end();
  await db.drop();
});

const drafted = '11111111-1111-4111-8111-111111111111';
const pending = '22222222-2222-4222-8222-222222222222';
const untouched = '33333333-3333-4333-8333-333333333333';
const later = '44444444-4444-4444-8444-444444444444';

describe('migration 0022 (post-mortem documents)', () => {
  it('keeps each draft as a document written by the AI, and gives a requested draft its document', async () => {
    await sql`
      insert into incidents (id, title, severity, status, source)
      values (${drafted}, 'a', 'critical', 'triggered', 'manual'), (${pending}, 'b', 'high', 'triggered', 'manual'),
             (${untouched}, 'c', 'low', 'triggered', 'manual')`;
    await sql`
      insert into ai_requests (id, kind, incident_id, status, created_at) values
        ('aaaaaaaa-0000-4000-8000-000000000001', 'postmortem', ${drafted}, 'done', '2026-01-01T00:00:00Z'),
        ('aaaaaaaa-0000-4000-8000-000000000002', 'postmortem', ${pending}, 'failed', '2026-01-02T00:00:00Z'),
        ('aaaaaaaa-0000-4000-8000-000000000003', 'postmortem', ${pending}, 'pending', '2026-01-03T00:00:00Z')`;
    await sql`
      insert into postmortems (incident_id, request_id, content, generated_at)
      values (${drafted}, 'aaaaaaaa-0000-4000-8000-000000000001', '## Summary\nOld draft.', '2026-01-01T00:05:00Z')`;

    const { applied } = await migrate(sql);
    expect(applied.map((m) => m.version)).toContain(22);

    const rows = await sql`
      select p.incident_id, p.status, p.request_id, p.generated_at, p.ai_draft_generated_at, p.content, p.version, p.content_source, p.ai_request_id, p.ai_draft_content,
             p.ai_draft_applied, p.created_at, t.name as template
      from postmortems p left join postmortem_templates t on t.id = p.template_id order by p.incident_id`;
    expect(rows).toHaveLength(2);
    expect(rows[0]).toMatchObject({
      incident_id: drafted,
      status: 'draft',
      content: '## Summary\nOld draft.',
      version: 1,
      content_source: 'ai',
      ai_request_id: 'aaaaaaaa-0000-4000-8000-000000000001',
      ai_draft_content: '## Summary\nOld draft.',
      ai_draft_applied: true,
      created_at: new Date('2026-01-01T00:05:00Z'),
      template: null,
      // The previous release's columns stay as they were.
      request_id: 'aaaaaaaa-0000-4000-8000-000000000001',
      generated_at: new Date('2026-01-01T00:05:00Z'),
      ai_draft_generated_at: new Date('2026-01-01T00:05:00Z'),
    });
    expect(rows[1]).toMatchObject({
      incident_id: pending,
      content_source: 'template',
      ai_draft_content: null,
      ai_draft_applied: false,
      created_at: new Date('2026-01-02T00:00:00Z'),
      template: 'Blameless post-mortem',
      request_id: null,
      generated_at: new Date('2026-01-02T00:00:00Z'),
    });
    expect(rows[1]!.content).toMatch(/^## Summary\n[\s\S]*## Lessons learned\n/);
  });

  it('keeps the previous release working: its writes and reads of request_id and generated_at', async () => {
    await sql`
      insert into incidents (id, title, severity, status, source)
      values (${later}, 'd', 'low', 'triggered', 'manual')`;
    // A replica on the previous release lands a draft the way it always did, and reads it back.
    await sql`
      insert into postmortems (incident_id, request_id, content, generated_at)
      values (${later}, 'aaaaaaaa-0000-4000-8000-000000000003', 'Old worker draft', '2026-01-04T00:00:00Z')
      on conflict (incident_id) do update
        set request_id = excluded.request_id, content = excluded.content, generated_at = excluded.generated_at`;
    const [old] = await sql`select * from postmortems where incident_id = ${later}`;
    expect(old).toMatchObject({
      request_id: 'aaaaaaaa-0000-4000-8000-000000000003',
      content: 'Old worker draft',
      generated_at: new Date('2026-01-04T00:00:00Z'),
      status: 'draft',
      version: 1,
    });

    // This release writes the old columns too, so the previous release reads a consistent row.
    const at = new Date('2026-01-05T00:00:00Z');
    await insertPostmortem(sql, {
      incidentId: untouched,
      status: 'draft',
      content: '## Summary\n',
      templateId: null,
      contentSource: 'template',
      updatedBy: null,
      at,
    });
    const landed = new Date('2026-01-05T00:10:00Z');
    await landAiDraft(sql, {
      incidentId: untouched,
      requestId: 'aaaaaaaa-0000-4000-8000-000000000003',
      content: '## Summary\nDrafted.',
      apply: true,
      at: landed,
    });
    const [mirrored] = await sql`
      select request_id, generated_at, content, ai_request_id from postmortems where incident_id = ${untouched}`;
    expect(mirrored).toEqual({
      request_id: 'aaaaaaaa-0000-4000-8000-000000000003',
      generated_at: landed,
      content: '## Summary\nDrafted.',
      ai_request_id: 'aaaaaaaa-0000-4000-8000-000000000003',
    });
  });
});
