// The post-mortem vocabulary as the UI shows it (docs/api.md, post-mortems); the shapes are the
// schema's own types, so a field the API renames fails the type-check here.
import type { PostmortemStatus } from '@firebreak/schema';

export type {
  ActionItem,
  ActionItemStatus,
  CreateActionItemInput,
  Postmortem as PostmortemDocument,
  PostmortemComment,
  PostmortemStatus,
  PostmortemTemplate,
  SavePostmortemInput,
  UpdateActionItemInput,
} from '@firebreak/schema';

export const postmortemStatuses = [
  'draft',
  'in_review',
  'published',
] as const satisfies readonly PostmortemStatus[];

export const postmortemStatusLabel: Record<PostmortemStatus, string> = {
  draft: 'Draft',
  in_review: 'In review',
  published: 'Published',
};
