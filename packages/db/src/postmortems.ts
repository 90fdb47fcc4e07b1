import type { Queryable } from './client';

/** The post-mortem document of an incident, with its last writer's name (docs/postmortems.md). */
export interface PostmortemRow {
  incident_id: string;
  status: 'draft' | 'in_review' | 'published';
  content: string;
  template_id: string | null;
  version: number;
  content_source: 'human' | 'ai' | 'template';
  created_at: Date;
  updated_at: Date;
  updated_by: string | null;
  updated_by_name: string | null;
  /** The request whose draft landed last. */
  ai_request_id: string | null;
  ai_draft_content: string | null;
  ai_draft_generated_at: Date | null;
  ai_draft_applied: boolean;
}

export async function findPostmortem(sql: Queryable, incidentId: string): Promise<PostmortemRow | undefined> {
  const [row] = await sql<PostmortemRow[]>`
    select p.*, u.name as updated_by_name
    from postmortems p left join users u on u.id = p.updated_by
    where p.incident_id = ${incidentId}`;
  return row;
}

/** The document locked for a write, so two saves of one version cannot both pass the version check. */
export async function lockPostmortem(sql: Queryable, incidentId: string): Promise<PostmortemRow | undefined> {
  const [row] = await sql<PostmortemRow[]>`
    select p.*, null::text as updated_by_name from postmortems p
    where p.incident_id = ${incidentId} for update`;
  return row;
}

export interface NewPostmortem {
  incidentId: string;
  status: PostmortemRow['status'];
  content: string;
  templateId: string | null;
  contentSource: PostmortemRow['content_source'];
  updatedBy: string | null;
  at: Date;
}

/**
 * A new document, unless the incident has one already (a concurrent creation): then nothing, and the
 * caller locks and reads that one.
 */
export async function insertPostmortem(sql: Queryable, doc: NewPostmortem): Promise<boolean> {
  // `generated_at` (not null) is for replicas on the previous release: see migration 0022.
  const result = await sql`
    insert into postmortems (incident_id, status, content, generated_at, template_id, content_source,
                             created_at, updated_at, updated_by)
    values (${doc.incidentId}, ${doc.status}, ${doc.content}, ${doc.at}, ${doc.templateId}, ${doc.contentSource},
            ${doc.at}, ${doc.at}, ${doc.updatedBy})
    on conflict (incident_id) do nothing`;
  return result.count > 0;
}

export interface PostmortemChanges {
  status: PostmortemRow['status'];
  content: string;
  templateId: string | null;
  contentSource: PostmortemRow['content_source'];
  aiDraftApplied: boolean;
  updatedBy: string | null;
  at: Date;
}

/**
 * A person's save: every field written and the version moved on by one. `generated_at`, kept for
 * replicas on the previous release (migration 0022), follows the text.
 */
export async function updatePostmortem(
  sql: Queryable,
  incidentId: string,
  changes: PostmortemChanges,
): Promise<void> {
  await sql`
    update postmortems set status = ${changes.status}, content = ${changes.content},
      generated_at = case when content = ${changes.content} then generated_at else ${changes.at} end,
      template_id = ${changes.templateId}, content_source = ${changes.contentSource},
      ai_draft_applied = ${changes.aiDraftApplied}, updated_by = ${changes.updatedBy},
      updated_at = ${changes.at}, version = version + 1
    where incident_id = ${incidentId}`;
}

/**
 * Lands an AI draft. `apply` (decided by the caller under the row lock): the draft becomes the text too,
 * and the version moves on; otherwise only the waiting draft changes, and the people's version stands.
 * `request_id` and `generated_at` mirror the new columns for replicas on the previous release (0022).
 */
export async function landAiDraft(
  sql: Queryable,
  draft: { incidentId: string; requestId: string; content: string; apply: boolean; at: Date },
): Promise<void> {
  await sql`
    update postmortems set ai_request_id = ${draft.requestId}, request_id = ${draft.requestId},
      ai_draft_content = ${draft.content},
      ai_draft_generated_at = ${draft.at}, ai_draft_applied = ${draft.apply},
      content = case when ${draft.apply} then ${draft.content} else content end,
      generated_at = case when ${draft.apply} then ${draft.at} else generated_at end,
      content_source = case when ${draft.apply} then 'ai' else content_source end,
      version = case when ${draft.apply} then version + 1 else version end,
      updated_at = case when ${draft.apply} then ${draft.at} else updated_at end,
      updated_by = case when ${draft.apply} then null else updated_by end
    where incident_id = ${draft.incidentId}`;
}
