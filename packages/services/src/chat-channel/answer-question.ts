import { ai, chat, chatQuestions, outbox } from '@firebreak/db';
import type { JobQueues, PendingJob } from '@firebreak/queue';
import type { ServiceContext } from '../context';
import { answerJob, chatAnswerTexts } from './ask-question';

export type ChatQuestion = chatQuestions.ChatQuestionRow;

/** The question a `chat_answer` request answers, if it still exists. */
export async function findQuestionOfRequest(
  ctx: ServiceContext,
  requestId: string,
): Promise<ChatQuestion | undefined> {
  return chatQuestions.findChatQuestionByRequest(ctx.sql, requestId);
}

/**
 * Lands the AI's answer: the request `done`, the answer on the question and the job that posts it in
 * the thread, in one transaction. A request that already finished (a retried job) changes nothing.
 */
export async function completeChatAnswer(
  ctx: ServiceContext,
  question: Pick<ChatQuestion, 'id' | 'incident_id' | 'request_id'>,
  text: string,
): Promise<void> {
  await finish(ctx, question, { status: 'done' }, text);
}

/** After the last try: the request `failed` with the reason, and a thread reply saying it failed. */
export async function failChatAnswer(
  ctx: ServiceContext,
  question: Pick<ChatQuestion, 'id' | 'incident_id' | 'request_id'>,
  reason: string,
): Promise<void> {
  await finish(ctx, question, { status: 'failed', error: reason.slice(0, 1000) }, chatAnswerTexts.failed);
}

async function finish(
  ctx: ServiceContext,
  question: Pick<ChatQuestion, 'id' | 'incident_id' | 'request_id'>,
  outcome: { status: 'done' | 'failed'; error?: string },
  answer: string,
): Promise<void> {
  await ctx.sql.begin(async (tx) => {
    const at = ctx.now();
    if (question.request_id && !(await ai.finishAiRequest(tx, question.request_id, { ...outcome, at })))
      return;
    if (!(await chatQuestions.setChatAnswer(tx, question.id, answer))) return;
    await outbox.insertOutboxRows(tx, [answerJob(question)]);
  });
}

/** A question and its answer, for the chat job that posts it. */
export async function readChatQuestion(ctx: ServiceContext, id: string): Promise<ChatQuestion | undefined> {
  return chatQuestions.findChatQuestion(ctx.sql, id);
}

/** The answer posted in the thread (`replyTs`) or refused for good (`error`): never posted twice. */
export async function recordChatReply(
  ctx: ServiceContext,
  id: string,
  reply: { replyTs: string | null; error: string | null },
): Promise<void> {
  await chatQuestions.recordChatReply(ctx.sql, id, { ...reply, at: ctx.now() });
}

/**
 * The questions part of chat's recovery pass (docs/integrations/slack.md#recovery): once relayed, a
 * question's jobs live only in Redis. An answer known but not posted gets its `chat.answer_question`
 * again, a pending `chat_answer` request its `ai.chat_answer`, under ids naming the work, so repeated
 * passes add nothing while the job is queued; each job does only what is still missing (a request
 * already finished, a reply already recorded change nothing). Returns how many jobs it asked for.
 */
export async function recoverChatQuestions(
  ctx: ServiceContext,
  queues: JobQueues,
  rules: { graceMs: number; lookBackMs: number; limit: number },
): Promise<number> {
  const now = ctx.now().getTime();
  const owed = await chat.listPendingChatQuestions(ctx.sql, {
    since: new Date(now - rules.lookBackMs),
    quietSince: new Date(now - rules.graceMs),
    limit: rules.limit,
  });
  const jobs = owed.flatMap((work): PendingJob[] => {
    if (work.kind === 'answer_question') {
      return [
        {
          name: 'chat.answer_question',
          payload: { question_id: work.question_id },
          options: { jobId: `chat-recovery-answer-${work.question_id}` },
        },
      ];
    }
    if (!work.request_id) return [];
    return [
      {
        name: 'ai.chat_answer',
        payload: { request_id: work.request_id },
        options: { jobId: `chat-recovery-ai-${work.request_id}` },
      },
    ];
  });
  if (jobs.length > 0) await queues.enqueueMany(jobs);
  return jobs.length;
}
