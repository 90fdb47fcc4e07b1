import { ai, postmortems, timeline } from '@firebreak/db';
import type { ServiceContext } from '../context';
import { ensurePostmortemDocument } from '../postmortems/ensure-document';
import type { AiAnswer } from './complete-summary';

/**
 * Lands a post-mortem draft: the request `done`, the draft in the document and a `postmortem_drafted`
 * entry, in one transaction. A request that already finished changes nothing.
 *
 * The draft becomes the document's text only while it is a `draft` nobody has edited since the last AI or
 * template fill (`content_source` not `human`); otherwise the people's text, or the text under review or
 * published, stays and the draft waits beside it (`ai_draft.applied: false`) for someone to take it
 * (docs/decisions.md#post-mortems).
 */
export async function completePostmortem(
  ctx: ServiceContext,
  request: { id: string; incidentId: string },
  answer: AiAnswer,
): Promise<void> {
  await ctx.sql.begin(async (tx) => {
    const at = ctx.now();
    if (!(await ai.finishAiRequest(tx, request.id, { status: 'done', at }))) return;
    await ensurePostmortemDocument(tx, request.incidentId, at);
    const doc = await postmortems.lockPostmortem(tx, request.incidentId);
    const apply = doc !== undefined && mayReplaceText(doc);
    await postmortems.landAiDraft(tx, {
      incidentId: request.incidentId,
      requestId: request.id,
      content: answer.text,
      apply,
      at,
    });
    await timeline.insertTimelineEntry(tx, {
      incidentId: request.incidentId,
      type: 'postmortem_drafted',
      actor: { type: 'ai', name: answer.model },
      data: { request_id: request.id, model: answer.model, cites: answer.cites, applied: apply },
      at,
    });
  });
}

/** Only a draft still as the template or an earlier AI draft filled it; never text in review or published. */
function mayReplaceText(doc: postmortems.PostmortemRow): boolean {
  return doc.status === 'draft' && doc.content_source !== 'human';
}
