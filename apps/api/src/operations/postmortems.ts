import { answer, defineOperation, errorAnswers, jsonBody } from '@firebreak/http';
import {
  ActionItem,
  ActionItemPage,
  CreateActionItemInput,
  CreatePostmortemCommentInput,
  CreatePostmortemTemplateInput,
  ListActionItemsQuery,
  Postmortem,
  PostmortemComment,
  PostmortemTemplate,
  SavePostmortemInput,
  UpdateActionItemInput,
  UpdatePostmortemTemplateInput,
} from '@firebreak/schema';
import { z } from 'zod';
import { collectionOperations } from './collection';
import { IncidentParams } from './params';

/**
 * Post-mortem documents (docs/postmortems.md). Writing one is incident work: members and admins write,
 * viewers read (docs/api.md#roles); templates are configuration, written by admins.
 */

const uuidParam = (noun: string) =>
  z
    .guid({ error: (issue) => `No ${noun} with id "${String(issue.input)}".` })
    .toLowerCase()
    .meta({ description: `The ${noun}’s UUID` });
const ActionItemParams = IncidentParams.extend({ item_id: uuidParam('action item') });
const CommentParams = IncidentParams.extend({ comment_id: uuidParam('comment') });
const base = '/api/v1/incidents/{id}/postmortem';

export const postmortemOperations = {
  get: defineOperation({
    method: 'get',
    path: base,
    access: 'viewer',
    summary: 'The incident’s post-mortem document and its AI draft',
    description:
      '404 `postmortem_not_found` until someone saves one or an AI draft is asked for (also automatically on resolution).',
    request: { params: IncidentParams },
    responses: { 200: answer('The document', Postmortem), ...errorAnswers(404) },
  }),
  save: defineOperation({
    method: 'put',
    path: base,
    access: 'member',
    summary: 'Create or replace the post-mortem document',
    description:
      'A new document without `content` starts from the template (`template_id`, else the default). With `version`, 409 `postmortem_conflict` unless it is the current one; without it the save is last-writer-wins (for scripts; the web UI always sends it). Leaving `draft` makes the text the people’s, which AI drafts no longer replace. A status change writes a `postmortem_status_changed` timeline entry.',
    request: { params: IncidentParams, body: jsonBody(SavePostmortemInput) },
    responses: { 200: answer('Saved', Postmortem), ...errorAnswers(400, 403, 404, 409, 415) },
  }),
  exportMarkdown: defineOperation({
    method: 'get',
    path: '/api/v1/incidents/{id}/postmortem.md',
    access: 'viewer',
    summary: 'The post-mortem as one Markdown file, action items as a checklist',
    request: { params: IncidentParams },
    responses: {
      200: { description: 'The file', content: { 'text/markdown': { schema: { type: 'string' } } } },
      ...errorAnswers(404),
    },
  }),
  listIncidentActionItems: defineOperation({
    method: 'get',
    path: `${base}/action-items`,
    access: 'viewer',
    summary: 'The incident’s action items, oldest first',
    request: { params: IncidentParams },
    responses: {
      200: answer('Action items', z.object({ items: z.array(ActionItem) })),
      ...errorAnswers(404),
    },
  }),
  createActionItem: defineOperation({
    method: 'post',
    path: `${base}/action-items`,
    access: 'member',
    summary: 'Add an action item',
    request: { params: IncidentParams, body: jsonBody(CreateActionItemInput) },
    responses: { 201: answer('Added', ActionItem), ...errorAnswers(400, 403, 404, 415) },
  }),
  updateActionItem: defineOperation({
    method: 'patch',
    path: `${base}/action-items/{item_id}`,
    access: 'member',
    summary: 'Change an action item (`null` clears owner or due date)',
    request: { params: ActionItemParams, body: jsonBody(UpdateActionItemInput) },
    responses: { 200: answer('Changed', ActionItem), ...errorAnswers(400, 403, 404, 415) },
  }),
  deleteActionItem: defineOperation({
    method: 'delete',
    path: `${base}/action-items/{item_id}`,
    access: 'member',
    summary: 'Delete an action item',
    request: { params: ActionItemParams },
    responses: { 204: answer('Deleted'), ...errorAnswers(403, 404) },
  }),
  listActionItems: defineOperation({
    method: 'get',
    path: '/api/v1/action-items',
    access: 'viewer',
    summary: 'Action items across incidents: overdue first, then by due date',
    description:
      '`owner_id=me` is the caller. Overdue: open and due before today in UTC. Paged by cursor (docs/api.md#pagination); the cursor keeps the first page’s day.',
    request: { query: ListActionItemsQuery },
    responses: { 200: answer('A page of action items', ActionItemPage), ...errorAnswers(400) },
  }),
  listComments: defineOperation({
    method: 'get',
    path: `${base}/comments`,
    access: 'viewer',
    summary: 'Review comments on the post-mortem, oldest first',
    request: { params: IncidentParams },
    responses: {
      200: answer('Comments', z.object({ items: z.array(PostmortemComment) })),
      ...errorAnswers(404),
    },
  }),
  addComment: defineOperation({
    method: 'post',
    path: `${base}/comments`,
    access: 'member',
    summary: 'Comment on the post-mortem',
    request: { params: IncidentParams, body: jsonBody(CreatePostmortemCommentInput) },
    responses: { 201: answer('Added', PostmortemComment), ...errorAnswers(400, 403, 404, 415) },
  }),
  deleteComment: defineOperation({
    method: 'delete',
    path: `${base}/comments/{comment_id}`,
    access: 'member',
    summary: 'Delete a comment (its author, or an admin)',
    request: { params: CommentParams },
    responses: { 204: answer('Deleted'), ...errorAnswers(403, 404) },
  }),
};

/** Templates: everyone reads, admins write; the default can be neither unset nor deleted (409). */
export const postmortemTemplateOperations = collectionOperations(
  '/api/v1/postmortem-templates',
  'items',
  'post-mortem template',
  {
    item: PostmortemTemplate,
    create: CreatePostmortemTemplateInput,
    update: UpdatePostmortemTemplateInput,
  },
);
