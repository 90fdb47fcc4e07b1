import type { Job } from '@firebreak/queue';
import {
  type AiRequest,
  type AiRequestKind,
  completeHandoffDigest,
  completePostmortem,
  completeSummary,
  failAiRequest,
  findHandoffDigestRequest,
  findPendingAiRequest,
  type IncidentContext,
  loadHandoffIncidents,
  loadIncidentContext,
  loadPostmortemSections,
  type ServiceContext,
} from '@firebreak/services';
import { chatAnswerHandler } from './chat-answer';
import {
  citedEntries,
  describeAlerts,
  describeIncident,
  describeSections,
  fillPrompt,
  labelEntries,
  SYSTEM,
  timelineWindows,
} from './prompts';
import type { AiProvider } from './provider';

/**
 * The AI jobs. Each reads its request, builds its prompt only from that request's own data, asks the
 * provider, and lands the result through one service call (one transaction) — so a failure leaves
 * nothing half-written. The last failed attempt marks the request `failed` with the reason.
 */
export function aiHandlers(ctx: ServiceContext, provider: AiProvider | undefined) {
  const run =
    (kind: AiRequestKind, work: (request: AiRequest) => Promise<void>) =>
    async (payload: { request_id: string }, job: Job) => {
      const request = await findPendingAiRequest(ctx, payload.request_id, kind);
      if (!request) return;
      try {
        if (!provider) throw new Error('no AI provider is configured in this worker');
        await work(request);
      } catch (error) {
        const last = job.attemptsMade + 1 >= (job.opts.attempts ?? 1);
        const reason = error instanceof Error ? error.message : String(error);
        ctx.logger.warn(
          { request_id: request.id, kind, last_attempt: last, err: error },
          'ai request failed',
        );
        if (!last) throw error;
        await failAiRequest(ctx, request.id, reason);
      }
    };

  return {
    'ai.summarize': run('summary', async (request) => {
      const context = await incidentContext(ctx, request);
      const answer = await askAboutIncident(provider!, 'summary', context, 600);
      await completeSummary(ctx, { id: request.id, incidentId: context.incident.id }, answer);
    }),

    'ai.postmortem': run('postmortem', async (request) => {
      const context = await incidentContext(ctx, request);
      // The draft answers in the document's own sections, so it drops into the text people know.
      const sections = await loadPostmortemSections(ctx, context.incident.id);
      const answer = await askAboutIncident(provider!, 'postmortem', context, 1800, {
        sections: describeSections(sections),
      });
      await completePostmortem(ctx, { id: request.id, incidentId: context.incident.id }, answer);
    }),

    'ai.handoff_digest': run('handoff_digest', async (request) => {
      const digest = await findHandoffDigestRequest(ctx, request.id);
      if (!digest) return;
      const incidents = await loadHandoffIncidents(ctx, digest.since, digest.until);
      const lines = incidents.map(
        (i) =>
          `INC-${i.number} "${i.title.slice(0, 200)}" severity ${i.severity}, status ${i.status}, opened ${i.created_at.toISOString()}` +
          (i.resolved_at ? `, resolved ${i.resolved_at.toISOString()}` : '') +
          `, ${i.changes} timeline entries in the window`,
      );
      const { text } = await provider!.complete({
        system: SYSTEM,
        user: fillPrompt('handoff', {
          window: `${digest.since.toISOString()} to ${digest.until.toISOString()}`,
          incidents: lines.join('\n') || 'None.',
        }),
        maxTokens: 1200,
      });
      await completeHandoffDigest(ctx, request.id, text);
    }),

    'ai.chat_answer': chatAnswerHandler(ctx, provider),
  };
}

async function incidentContext(ctx: ServiceContext, request: AiRequest): Promise<IncidentContext> {
  const context = request.incident_id ? await loadIncidentContext(ctx, request.incident_id) : undefined;
  if (!context) throw new Error('the incident of this request no longer exists');
  return context;
}

/** Summary or post-mortem: long timelines are first condensed window by window. */
async function askAboutIncident(
  provider: AiProvider,
  prompt: 'summary' | 'postmortem',
  context: IncidentContext,
  maxTokens: number,
  /** Further placeholders of the prompt (the post-mortem's sections). */
  extra: Record<string, string> = {},
): Promise<{ text: string; model: string; cites: string[] }> {
  const labelled = labelEntries(context);
  const windows = timelineWindows(labelled);
  let timelineText = windows[0]?.map((entry) => entry.line).join('\n') ?? 'No entries.';
  if (windows.length > 1) {
    const condensed: string[] = [];
    for (const window of windows) {
      const { text } = await provider.complete({
        system: SYSTEM,
        user: fillPrompt('timeline-window', { timeline: window.map((entry) => entry.line).join('\n') }),
        maxTokens: 400,
      });
      condensed.push(text);
    }
    timelineText = condensed.join('\n');
  }
  const answer = await provider.complete({
    system: SYSTEM,
    user: fillPrompt(prompt, {
      incident: describeIncident(context),
      alerts: describeAlerts(context),
      timeline: timelineText,
      ...extra,
    }),
    maxTokens,
  });
  return { ...answer, cites: citedEntries(answer.text, labelled) };
}
