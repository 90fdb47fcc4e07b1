import { z } from 'zod';
import { AiJobStatus } from './ai';
import { PageLimit } from './page';

/** Post-mortem documents, templates, action items and comments (docs/postmortems.md). */

export const PostmortemStatus = z.enum(['draft', 'in_review', 'published']);
export type PostmortemStatus = z.infer<typeof PostmortemStatus>;

/** Who wrote the document's current text last: a person, an AI draft, or a template fill. */
export const PostmortemContentSource = z.enum(['human', 'ai', 'template']);
export type PostmortemContentSource = z.infer<typeof PostmortemContentSource>;

/** A person as a post-mortem names them. `id` is null once their account was deleted. */
export const PostmortemPerson = z.object({ id: z.uuid().nullable(), name: z.string() });
export type PostmortemPerson = z.infer<typeof PostmortemPerson>;

/** The latest AI draft of the document and where its generation stands. */
export const PostmortemAiDraft = z.object({
  job_id: z.uuid(),
  status: AiJobStatus,
  content: z.string().nullable(),
  generated_at: z.string().nullable(),
  error: z.string().nullable(),
  /** True while the document's text is this draft (false: it waits, the human text was kept). */
  applied: z.boolean(),
});
export type PostmortemAiDraft = z.infer<typeof PostmortemAiDraft>;

/** `GET /api/v1/incidents/{id}/postmortem`. */
export const Postmortem = z.object({
  incident_id: z.uuid(),
  status: PostmortemStatus,
  content: z.string(),
  template_id: z.uuid().nullable(),
  version: z.number().int(),
  content_source: PostmortemContentSource,
  created_at: z.string(),
  updated_at: z.string(),
  updated_by: PostmortemPerson.nullable(),
  ai_draft: PostmortemAiDraft.nullable(),
});
export type Postmortem = z.infer<typeof Postmortem>;

const MAX_CONTENT = 200_000;

/** `PUT /api/v1/incidents/{id}/postmortem`: `version`, when given, must be the current one (else 409). */
export const SavePostmortemInput = z.object({
  status: PostmortemStatus,
  content: z.string().max(MAX_CONTENT).optional(),
  template_id: z.uuid().nullable().optional(),
  version: z.number().int().min(0).optional(),
});
export type SavePostmortemInput = z.infer<typeof SavePostmortemInput>;

export const PostmortemTemplate = z.object({
  id: z.uuid(),
  name: z.string(),
  content: z.string(),
  is_default: z.boolean(),
  created_at: z.string(),
  updated_at: z.string(),
});
export type PostmortemTemplate = z.infer<typeof PostmortemTemplate>;

const TemplateName = z.string().trim().min(1).max(200);
const TemplateContent = z.string().min(1).max(MAX_CONTENT);

export const CreatePostmortemTemplateInput = z.object({
  name: TemplateName,
  content: TemplateContent,
  is_default: z.boolean().optional(),
});
export type CreatePostmortemTemplateInput = z.infer<typeof CreatePostmortemTemplateInput>;

/** `is_default: true` makes it the default; `false` is refused on the default (name another instead). */
export const UpdatePostmortemTemplateInput = z.object({
  name: TemplateName.optional(),
  content: TemplateContent.optional(),
  is_default: z.boolean().optional(),
});
export type UpdatePostmortemTemplateInput = z.infer<typeof UpdatePostmortemTemplateInput>;

export const ActionItemStatus = z.enum(['open', 'done']);
export type ActionItemStatus = z.infer<typeof ActionItemStatus>;

export const ActionItem = z.object({
  id: z.uuid(),
  incident_id: z.uuid(),
  incident_number: z.number().int(),
  incident_title: z.string(),
  title: z.string(),
  owner: PostmortemPerson.nullable(),
  /** YYYY-MM-DD. */
  due_date: z.string().nullable(),
  status: ActionItemStatus,
  created_at: z.string(),
  updated_at: z.string(),
  completed_at: z.string().nullable(),
});
export type ActionItem = z.infer<typeof ActionItem>;

const ActionItemTitle = z.string().trim().min(1).max(500);
// Years 1900 to 9999: PostgreSQL would take year 1 or 200 000, but such a date is a typo, and the
// date's text (YYYY-MM-DD) must read back as it was written.
const DueDate = z.iso.date({ error: 'must be a date, YYYY-MM-DD' }).refine((date) => date >= '1900-01-01', {
  error: 'must be in the years 1900 to 9999',
  // Only a well-formed date: one that is not has its error already.
  when: (payload) => payload.issues.length === 0,
});

export const CreateActionItemInput = z.object({
  title: ActionItemTitle,
  owner_id: z.uuid().nullable().optional(),
  due_date: DueDate.nullable().optional(),
});
export type CreateActionItemInput = z.infer<typeof CreateActionItemInput>;

/** `null` clears the owner or the due date. */
export const UpdateActionItemInput = z.object({
  title: ActionItemTitle.optional(),
  owner_id: z.uuid().nullable().optional(),
  due_date: DueDate.nullable().optional(),
  status: ActionItemStatus.optional(),
});
export type UpdateActionItemInput = z.infer<typeof UpdateActionItemInput>;

/** `GET /api/v1/action-items`: `owner_id=me` is the caller. */
export const ListActionItemsQuery = z.object({
  status: ActionItemStatus.optional(),
  owner_id: z.union([z.uuid(), z.literal('me')]).optional(),
  cursor: z.string().max(200).optional(),
  limit: PageLimit,
});
export type ListActionItemsQuery = z.infer<typeof ListActionItemsQuery>;

export const ActionItemPage = z.object({ items: z.array(ActionItem), next_cursor: z.string().nullable() });
export type ActionItemPage = z.infer<typeof ActionItemPage>;

export const PostmortemComment = z.object({
  id: z.uuid(),
  author: PostmortemPerson,
  body: z.string(),
  created_at: z.string(),
});
export type PostmortemComment = z.infer<typeof PostmortemComment>;

export const CreatePostmortemCommentInput = z.object({ body: z.string().trim().min(1).max(10_000) });
export type CreatePostmortemCommentInput = z.infer<typeof CreatePostmortemCommentInput>;
