import type { Queryable } from './client';

export interface PostmortemCommentRow {
  id: string;
  incident_id: string;
  author_id: string | null;
  author_name: string;
  body: string;
  created_at: Date;
}

/** Oldest first, the order of a conversation. */
export async function listComments(sql: Queryable, incidentId: string): Promise<PostmortemCommentRow[]> {
  return sql<PostmortemCommentRow[]>`
    select * from postmortem_comments where incident_id = ${incidentId} order by created_at, id`;
}

export async function findComment(
  sql: Queryable,
  incidentId: string,
  id: string,
): Promise<PostmortemCommentRow | undefined> {
  const [row] = await sql<PostmortemCommentRow[]>`
    select * from postmortem_comments where id = ${id} and incident_id = ${incidentId}`;
  return row;
}

export async function insertComment(
  sql: Queryable,
  comment: { incidentId: string; authorId: string | null; authorName: string; body: string; at: Date },
): Promise<PostmortemCommentRow> {
  const [row] = await sql<PostmortemCommentRow[]>`
    insert into postmortem_comments (incident_id, author_id, author_name, body, created_at)
    values (${comment.incidentId}, ${comment.authorId}, ${comment.authorName}, ${comment.body}, ${comment.at})
    returning *`;
  return row!;
}

export async function deleteComment(sql: Queryable, id: string): Promise<void> {
  await sql`delete from postmortem_comments where id = ${id}`;
}
