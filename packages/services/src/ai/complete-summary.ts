import { ai, outbox, timeline } from '@firebreak/db';
import type { ServiceContext } from '../context';
import { chatJobs } from '../incidents/chat-jobs';

/** What the AI provider answered about an incident, and which timeline entries the answer cites. */
export interface AiAnswer {
  text: string;
  model: string;
  /** Ids of the timeline entries the answer refers to. */
  cites: string[];
}

/**
 * Lands a summary: the request `done`, an `ai_summary` entry, and its post to the incident's channel,
 * in one transaction. A request that already finished (a retried job) changes nothing.
 */
export async function completeSummary(
  ctx: ServiceContext,
  request: { id: string; incidentId: string },
  answer: AiAnswer,
): Promise<void> {
  await ctx.sql.begin(async (tx) => {
    const at = ctx.now();
    if (!(await ai.finishAiRequest(tx, request.id, { status: 'done', at }))) return;
    const entry = await timeline.insertTimelineEntry(tx, {
      incidentId: request.incidentId,
      type: 'ai_summary',
      actor: { type: 'ai', name: answer.model },
      data: { text: answer.text, model: answer.model, request_id: request.id, cites: answer.cites },
      at,
    });
    // Posted to the incident's channel like any other entry.
    await outbox.insertOutboxRows(tx, [chatJobs.postEntry(request.incidentId, entry.id)]);
  });
}
