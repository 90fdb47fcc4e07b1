import type { actionItems, ai, postmortemComments, postmortems, postmortemTemplates } from '@firebreak/db';
import type {
  ActionItem,
  Postmortem,
  PostmortemAiDraft,
  PostmortemComment,
  PostmortemTemplate,
} from '@firebreak/schema';

/**
 * The document as the API shows it. `latest` is the newest post-mortem request: its state is the AI
 * draft's state, while the text is the last draft that landed (a redraft in flight keeps the previous
 * one readable).
 */
export function presentPostmortem(
  row: postmortems.PostmortemRow,
  latest: ai.AiRequestRow | undefined,
): Postmortem {
  return {
    incident_id: row.incident_id,
    status: row.status,
    content: row.content,
    template_id: row.template_id,
    version: row.version,
    content_source: row.content_source,
    created_at: row.created_at.toISOString(),
    updated_at: row.updated_at.toISOString(),
    updated_by: row.updated_by ? { id: row.updated_by, name: row.updated_by_name ?? 'unknown' } : null,
    ai_draft: latest ? presentAiDraft(row, latest) : null,
  };
}

function presentAiDraft(row: postmortems.PostmortemRow, latest: ai.AiRequestRow): PostmortemAiDraft {
  return {
    job_id: latest.id,
    status: latest.status,
    content: row.ai_draft_content,
    generated_at: row.ai_draft_generated_at?.toISOString() ?? null,
    error: latest.status === 'failed' ? latest.error : null,
    applied: row.ai_draft_content !== null && row.ai_draft_applied,
  };
}

export function presentTemplate(row: postmortemTemplates.PostmortemTemplateRow): PostmortemTemplate {
  return {
    id: row.id,
    name: row.name,
    content: row.content,
    is_default: row.is_default,
    created_at: row.created_at.toISOString(),
    updated_at: row.updated_at.toISOString(),
  };
}

export function presentActionItem(row: actionItems.ActionItemRow): ActionItem {
  return {
    id: row.id,
    incident_id: row.incident_id,
    incident_number: row.incident_number,
    incident_title: row.incident_title,
    title: row.title,
    owner: row.owner_id ? { id: row.owner_id, name: row.owner_name ?? 'unknown' } : null,
    due_date: row.due_date,
    status: row.status,
    created_at: row.created_at.toISOString(),
    updated_at: row.updated_at.toISOString(),
    completed_at: row.completed_at?.toISOString() ?? null,
  };
}

export function presentComment(row: postmortemComments.PostmortemCommentRow): PostmortemComment {
  return {
    id: row.id,
    author: { id: row.author_id, name: row.author_name },
    body: row.body,
    created_at: row.created_at.toISOString(),
  };
}
