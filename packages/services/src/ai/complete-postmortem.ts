import { ai, timeline } from '@firebreak/db';
import type { ServiceContext } from '../context';
import type { AiAnswer } from './complete-summary';

/**
 * Lands a post-mortem draft: the request `done`, the draft (replacing an earlier one) and a
 * `postmortem_drafted` entry, in one transaction. A request that already finished changes nothing.
 */
export async function completePostmortem(
  ctx: ServiceContext,
  request: { id: string; incidentId: string },
  answer: AiAnswer,
): Promise<void> {
  await ctx.sql.begin(async (tx) => {
    const at = ctx.now();
    if (!(await ai.finishAiRequest(tx, request.id, { status: 'done', at }))) return;
    await ai.upsertPostmortem(tx, {
      incidentId: request.incidentId,
      requestId: request.id,
      content: answer.text,
      at,
    });
    await timeline.insertTimelineEntry(tx, {
      incidentId: request.incidentId,
      type: 'postmortem_drafted',
      actor: { type: 'ai', name: answer.model },
      data: { request_id: request.id, model: answer.model, cites: answer.cites },
      at,
    });
  });
}
