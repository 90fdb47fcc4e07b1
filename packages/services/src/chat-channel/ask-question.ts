import { ai, chat, chatQuestions, outbox } from '@firebreak/db';
import type { ServiceContext } from '../context';

/** A question asked of the bot (`app_mention`), as the Events API carries it. */
export interface ChatQuestionInput {
  channelId: string;
  chatUserId: string | null;
  /** The message without the bot's mention. */
  text: string;
  /** The message's own ts. */
  ts: string;
  /** Set when the question was asked inside a thread: the answer goes there. */
  threadTs: string | null;
  /** Whether this installation has an AI provider. */
  aiConfigured: boolean;
  /**
   * Why this person may not have an AI answer (not matched to an active Firebreak user, the identity
   * rules of the chat commands), or undefined when they may. Asked only when an AI answer would follow.
   */
  refusal: () => Promise<string | undefined>;
}

export type AskQuestionOutcome =
  | 'ai_asked'
  | 'ai_off'
  | 'not_incident_channel'
  | 'not_allowed'
  | 'busy'
  | 'duplicate';

/** AI answers pending at once per incident at most; more questions are asked to wait (cost, provider limits). */
export const MAX_PENDING_ANSWERS = 3;

/** The longest question sent to the AI provider (a mention is a question, not a document). */
export const MAX_QUESTION_LENGTH = 2000;

export const chatAnswerTexts = {
  aiOff:
    'AI is off for this installation, so I cannot answer questions. An admin can turn it on by ' +
    'configuring an AI provider (AI_PROVIDER, AI_API_KEY, AI_MODEL).',
  notIncidentChannel:
    'I answer questions only in incident channels (#inc-<number>-…), from that incident’s timeline.',
  failed: 'Sorry, I could not answer that: the AI request failed. Try again in a minute.',
  busy:
    `I am still working on ${MAX_PENDING_ANSWERS} questions about this incident. ` +
    'Please wait for those answers, then ask again.',
  notAllowed: (reason: string) => `I answer only people Firebreak knows. ${reason}`,
} as const;

/**
 * A mention of the bot (docs/chat.md#questions). In an incident channel with AI on, an AI request of
 * kind `chat_answer` is queued (the worker answers from that incident's record); with AI off, outside
 * incident channels, for someone Firebreak does not know, or while the incident already has
 * `MAX_PENDING_ANSWERS` answers pending, the short answer is known at once. Either way the answer is
 * posted in the question's thread by the `chat.answer_question` job. A mention delivered twice asks once.
 */
export async function askQuestionInChat(
  ctx: ServiceContext,
  input: ChatQuestionInput,
): Promise<AskQuestionOutcome> {
  const incident = await chat.findIncidentByChannel(ctx.sql, 'slack', input.channelId);
  const base = {
    channelId: input.channelId,
    threadTs: input.threadTs ?? input.ts,
    messageTs: input.ts,
    chatUserId: input.chatUserId,
    question: input.text.slice(0, MAX_QUESTION_LENGTH),
  };
  const refusal = incident && input.aiConfigured ? await input.refusal() : undefined;
  return ctx.sql.begin(async (tx): Promise<AskQuestionOutcome> => {
    const at = ctx.now();
    const answerAtOnce = async (answer: string, outcome: AskQuestionOutcome): Promise<AskQuestionOutcome> => {
      const question = await chatQuestions.insertChatQuestion(tx, {
        ...base,
        incidentId: incident?.id ?? null,
        requestId: null,
        answer,
        at,
      });
      if (!question) return 'duplicate';
      await outbox.insertOutboxRows(tx, [answerJob(question)]);
      return outcome;
    };
    if (!incident) return answerAtOnce(chatAnswerTexts.notIncidentChannel, 'not_incident_channel');
    if (!input.aiConfigured) return answerAtOnce(chatAnswerTexts.aiOff, 'ai_off');
    if (refusal) return answerAtOnce(chatAnswerTexts.notAllowed(refusal), 'not_allowed');
    // Counted under the incident's lock: two mentions at once cannot both take the last place.
    if ((await chatQuestions.lockAndCountPendingAnswers(tx, incident.id)) >= MAX_PENDING_ANSWERS) {
      return answerAtOnce(chatAnswerTexts.busy, 'busy');
    }
    const question = await chatQuestions.insertChatQuestion(tx, {
      ...base,
      incidentId: incident.id,
      requestId: null,
      answer: null,
      at,
    });
    if (!question) return 'duplicate';
    const request = await ai.insertAiRequest(tx, { kind: 'chat_answer', incidentId: null, at });
    await chatQuestions.linkChatQuestionRequest(tx, question.id, request.id);
    await outbox.insertOutboxRows(tx, [{ name: 'ai.chat_answer', payload: { request_id: request.id } }]);
    return 'ai_asked';
  });
}

/** The chat job that posts a question's answer; ordered with the incident's other chat work. */
export function answerJob(question: { id: string; incident_id: string | null }): outbox.OutboxJob {
  return {
    name: 'chat.answer_question',
    payload: { question_id: question.id },
    ...(question.incident_id ? { orderingKey: question.incident_id } : {}),
  };
}
