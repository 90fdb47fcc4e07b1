import type { Job } from '@firebreak/queue';
import {
  completeChatAnswer,
  failChatAnswer,
  findPendingAiRequest,
  findQuestionOfRequest,
  loadIncidentContext,
  type ServiceContext,
} from '@firebreak/services';
import {
  describeAlerts,
  describeIncident,
  ENTRIES_PER_PROMPT,
  fillPrompt,
  labelEntries,
  SYSTEM,
} from './prompts';
import type { AiProvider } from './provider';

/** A chat answer is a few sentences in a thread. */
const ANSWER_TOKENS = 500;

/**
 * The prompt's entry labels (`[E3]`, `[E1, E4]`) point at nothing a reader in chat can open, so an
 * answer that uses them anyway loses them (the prompt asks for none).
 */
export function withoutEntryLabels(text: string): string {
  return text.replace(/[ \t]*\[E\d+(?:\s*[,;]\s*E\d+)*\]/g, '').trim();
}

/**
 * `ai.chat_answer` (docs/chat.md#questions): answers a question asked of the bot in an incident channel
 * from that incident's record only — its fields, latest alerts and latest timeline entries (at most
 * `ENTRIES_PER_PROMPT`, one provider call; older entries are counted, not sent). The answer, or after
 * the last failed try a note that it failed, is posted in the question's thread by the chat worker.
 */
export function chatAnswerHandler(ctx: ServiceContext, provider: AiProvider | undefined) {
  return async (payload: { request_id: string }, job: Job): Promise<void> => {
    const request = await findPendingAiRequest(ctx, payload.request_id, 'chat_answer');
    const question = request ? await findQuestionOfRequest(ctx, request.id) : undefined;
    if (!request || !question) return;
    try {
      if (!provider) throw new Error('no AI provider is configured in this worker');
      const context = question.incident_id ? await loadIncidentContext(ctx, question.incident_id) : undefined;
      if (!context) throw new Error('the incident of this question no longer exists');
      const labelled = labelEntries(context);
      const latest = labelled.slice(-ENTRIES_PER_PROMPT);
      const omitted = context.omittedEntries + labelled.length - latest.length;
      const { text } = await provider.complete({
        system: SYSTEM,
        user: fillPrompt('chat-answer', {
          question: question.question,
          incident: describeIncident(context),
          alerts: describeAlerts(context),
          omitted: omitted > 0 ? `; ${omitted} earlier entries left out` : '',
          timeline: latest.map((entry) => entry.line).join('\n') || 'No entries.',
        }),
        maxTokens: ANSWER_TOKENS,
      });
      await completeChatAnswer(ctx, question, withoutEntryLabels(text));
    } catch (error) {
      const last = job.attemptsMade + 1 >= (job.opts.attempts ?? 1);
      ctx.logger.warn(
        { request_id: request.id, kind: 'chat_answer', last_attempt: last, err: error },
        'ai request failed',
      );
      if (!last) throw error;
      await failChatAnswer(ctx, question, error instanceof Error ? error.message : String(error));
    }
  };
}
