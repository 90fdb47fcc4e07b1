import {
  type incidents,
  postmortems,
  postmortemTemplates,
  type TransactionSql,
  timeline,
} from '@firebreak/db';
import { type Actor, AppError, type Postmortem, type SavePostmortemInput } from '@firebreak/schema';
import type { ServiceContext } from '../context';
import { requireIncident } from './incident';
import { getPostmortem } from './read';
import { refusingWriteErrors } from './write-errors';

type Row = postmortems.PostmortemRow;

/**
 * `PUT /api/v1/incidents/{id}/postmortem` (docs/postmortems.md): creates or replaces the document.
 * A new document without `content` starts from a template (the one named, else the default). With
 * `version`, the save is refused (409 `postmortem_conflict`) unless it is still the current one: someone
 * else saved first, and overwriting their text silently would lose it. Without it the save is
 * last-writer-wins, for scripts that own the document (the web UI always sends it). A status change is a
 * `postmortem_status_changed` timeline entry.
 */
export async function savePostmortem(
  ctx: ServiceContext,
  actor: Actor,
  ref: incidents.IncidentRef,
  input: SavePostmortemInput,
): Promise<Postmortem> {
  const incident = await requireIncident(ctx.sql, ref);
  // A template deleted after `requireTemplate` read it: the foreign key answers (400, as the check would).
  await refusingWriteErrors(
    ctx.sql.begin(async (tx) => {
      const at = ctx.now();
      const template = input.template_id ? await requireTemplate(tx, input.template_id) : undefined;
      const current =
        (await postmortems.lockPostmortem(tx, incident.id)) ??
        (await create(tx, actor, incident.id, input, template, at));
      // `create` answers undefined when it wrote the document; otherwise it is someone else's, just made.
      if (!current) return;
      if (input.version !== undefined && input.version !== current.version) {
        throw new AppError(
          'postmortem_conflict',
          `The post-mortem changed since version ${input.version} (it is at version ${current.version}); reload it and save again.`,
          { version: current.version },
        );
      }
      await postmortems.updatePostmortem(tx, incident.id, {
        status: input.status,
        content: input.content ?? current.content,
        templateId: input.template_id !== undefined ? input.template_id : current.template_id,
        ...sourceAfter(current, input),
        updatedBy: actor.id ?? null,
        at,
      });
      await recordStatusChange(tx, actor, incident.id, current.status, input.status, at);
    }),
  );
  return getPostmortem(ctx, { id: incident.id });
}

/**
 * Who wrote the text after this save. Sending it out of `draft` (to review, or published) adopts the
 * text, whoever wrote it: the people vouch for it now. Otherwise saving the waiting AI draft's exact
 * text ("Replace with the AI draft") makes it the AI's again, so the next draft may replace it; saving
 * the same text changes nothing; any other text is a person's, which no AI draft overwrites
 * (docs/decisions.md#post-mortems).
 */
function sourceAfter(current: Row, input: SavePostmortemInput) {
  const { content } = input;
  if (current.status === 'draft' && input.status !== 'draft') {
    const text = content ?? current.content;
    return { contentSource: 'human' as const, aiDraftApplied: text === current.ai_draft_content };
  }
  if (content === undefined || content === current.content) {
    return { contentSource: current.content_source, aiDraftApplied: current.ai_draft_applied };
  }
  if (current.ai_draft_content !== null && content === current.ai_draft_content) {
    return { contentSource: 'ai' as const, aiDraftApplied: true };
  }
  return { contentSource: 'human' as const, aiDraftApplied: false };
}

/** The first save. Undefined once written; the other document when a concurrent save created one first. */
async function create(
  tx: TransactionSql,
  actor: Actor,
  incidentId: string,
  input: SavePostmortemInput,
  named: postmortemTemplates.PostmortemTemplateRow | undefined,
  at: Date,
): Promise<Row | undefined> {
  // A document that does not exist is at version 0: a client that read one (version ≥ 1) is out of date.
  if (input.version !== undefined && input.version !== 0) {
    throw new AppError('postmortem_conflict', 'The post-mortem no longer exists; reload it.', { version: 0 });
  }
  const template =
    named ?? (input.template_id === null ? undefined : await postmortemTemplates.findDefaultTemplate(tx));
  const written = await postmortems.insertPostmortem(tx, {
    incidentId,
    status: input.status,
    content: input.content ?? template?.content ?? '',
    templateId: template?.id ?? null,
    // Started in review or published, the template's text is adopted like any text leaving `draft`.
    contentSource: input.content !== undefined || input.status !== 'draft' ? 'human' : 'template',
    updatedBy: actor.id ?? null,
    at,
  });
  if (!written) return postmortems.lockPostmortem(tx, incidentId);
  // A new document is a draft until someone says otherwise.
  await recordStatusChange(tx, actor, incidentId, 'draft', input.status, at);
  return undefined;
}

async function requireTemplate(tx: TransactionSql, id: string) {
  const template = await postmortemTemplates.findTemplate(tx, id);
  if (template) return template;
  throw new AppError('validation_failed', 'The request is not valid.', [
    { path: 'template_id', message: 'no post-mortem template has this id' },
  ]);
}

async function recordStatusChange(
  tx: TransactionSql,
  actor: Actor,
  incidentId: string,
  from: Row['status'],
  to: Row['status'],
  at: Date,
): Promise<void> {
  if (from === to) return;
  await timeline.insertTimelineEntry(tx, {
    incidentId,
    type: 'postmortem_status_changed',
    actor,
    data: { from, to },
    at,
  });
}
