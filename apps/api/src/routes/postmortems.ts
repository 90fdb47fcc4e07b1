import { changeOriginOf, type Operations, principalOf } from '@firebreak/http';
import {
  actorFromPrincipal,
  addPostmortemComment,
  createActionItem,
  createPostmortemTemplate,
  deleteActionItem,
  deletePostmortemComment,
  deletePostmortemTemplate,
  exportPostmortemMarkdown,
  getPostmortem,
  getPostmortemTemplate,
  listActionItems,
  listIncidentActionItems,
  listPostmortemComments,
  listPostmortemTemplates,
  parseIncidentRef,
  savePostmortem,
  updateActionItem,
  updatePostmortemTemplate,
} from '@firebreak/services';
import type { ApiDeps } from '../deps';
import {
  postmortemOperations as op,
  postmortemTemplateOperations as templates,
} from '../operations/postmortems';

/** Post-mortem documents, action items, comments and templates (docs/postmortems.md). */
export function addPostmortemRoutes(ops: Operations, deps: ApiDeps): void {
  const { ctx } = deps;
  const ref = (params: { id: string }) => parseIncidentRef(params.id);

  ops.add(op.get, async (c, { params }) => c.json(await getPostmortem(ctx, ref(params))));
  ops.add(op.save, async (c, { params, body }) =>
    c.json(await savePostmortem(ctx, actorFromPrincipal(principalOf(c)), ref(params), body)),
  );
  ops.add(op.exportMarkdown, async (c, { params }) => {
    const file = await exportPostmortemMarkdown(ctx, ref(params));
    return c.body(file.markdown, 200, {
      'content-type': 'text/markdown; charset=utf-8',
      'content-disposition': `attachment; filename="${file.filename}"`,
    });
  });

  ops.add(op.listIncidentActionItems, async (c, { params }) =>
    c.json({ items: await listIncidentActionItems(ctx, ref(params)) }),
  );
  ops.add(op.createActionItem, async (c, { params, body }) =>
    c.json(await createActionItem(ctx, ref(params), body), 201),
  );
  ops.add(op.updateActionItem, async (c, { params, body }) =>
    c.json(await updateActionItem(ctx, ref(params), params.item_id, body)),
  );
  ops.add(op.deleteActionItem, async (c, { params }) => {
    await deleteActionItem(ctx, ref(params), params.item_id);
    return c.body(null, 204);
  });
  ops.add(op.listActionItems, async (c, { query }) =>
    c.json(await listActionItems(ctx, query, principalOf(c).user?.id ?? null)),
  );

  ops.add(op.listComments, async (c, { params }) =>
    c.json({ items: await listPostmortemComments(ctx, ref(params)) }),
  );
  ops.add(op.addComment, async (c, { params, body }) =>
    c.json(await addPostmortemComment(ctx, principalOf(c), ref(params), body), 201),
  );
  ops.add(op.deleteComment, async (c, { params }) => {
    await deletePostmortemComment(ctx, principalOf(c), ref(params), params.comment_id);
    return c.body(null, 204);
  });

  ops.add(templates.list, async (c) => c.json({ items: await listPostmortemTemplates(ctx) }));
  ops.add(templates.create, async (c, { body }) =>
    c.json(await createPostmortemTemplate(ctx, body, changeOriginOf(c)), 201),
  );
  ops.add(templates.get, async (c, { params }) => c.json(await getPostmortemTemplate(ctx, params.id)));
  ops.add(templates.update, async (c, { params, body }) =>
    c.json(await updatePostmortemTemplate(ctx, params.id, body, changeOriginOf(c))),
  );
  ops.add(templates.remove, async (c, { params }) => {
    await deletePostmortemTemplate(ctx, params.id, changeOriginOf(c));
    return c.body(null, 204);
  });
}
