import type { Job } from '@firebreak/queue';
import { type ChatQuestion, readChatQuestion, recordChatReply } from '@firebreak/services';
import { ChatCallError } from './errors';
import { reportChatFailure, reportRefusal } from './failures';
import { escapeMrkdwn } from './format';
import { type ChatJob, isLastTry, type OutboundDeps, runChatJob } from './job';

/**
 * `chat.answer_question` (docs/chat.md#questions): posts the answer to a question asked of the bot in
 * the question's thread, once. Under the incident's chat lock when the question was asked in an
 * incident channel (so it is ordered with the channel's other posts), else under a lock of its own.
 */
export async function answerQuestion(deps: OutboundDeps, job: Job, questionId: string): Promise<void> {
  const question = await readChatQuestion(deps.ctx, questionId);
  if (!question || question.answer === null || question.replied_at !== null) return;
  await runChatJob(deps, job, question.incident_id ?? question.id, (jc) => postAnswer(jc, question.id));
}

async function postAnswer(jc: ChatJob, questionId: string): Promise<void> {
  // Read again under the lock: a duplicate job that waited for it finds the reply recorded.
  const question = await readChatQuestion(jc.ctx, questionId);
  if (!question || question.answer === null || question.replied_at !== null) return;
  try {
    const posted = await jc.call('answer_question', (client) =>
      client.chat.postMessage({
        channel: question.channel_id,
        thread_ts: question.thread_ts,
        // Escaped whatever it is: the AI's answer may repeat what a prompt-injected alert or note
        // said (`<!here>`, `<@U…>`, `<https://evil|label>`), and must read as text, not act as markup.
        text: escapeMrkdwn(question.answer!),
        unfurl_links: false,
      }),
    );
    await recordChatReply(jc.ctx, question.id, { replyTs: posted.ts ?? null, error: null });
  } catch (error) {
    if (!(error instanceof ChatCallError)) throw error;
    const givingUp =
      error.problem.kind === 'refused' || (error.problem.kind === 'transient' && isLastTry(jc.job));
    if (!givingUp) throw error;
    await recordChatReply(jc.ctx, question.id, { replyTs: null, error: error.code });
    await reportGivenUp(jc, question, error);
  }
}

/** An incident's channel records it like its other chat failures; elsewhere it is only logged. */
async function reportGivenUp(jc: ChatJob, question: ChatQuestion, error: ChatCallError): Promise<void> {
  const extra = { question_id: question.id, channel_id: question.channel_id };
  if (question.incident_id) await reportRefusal(jc, error, extra);
  else reportChatFailure(jc, error, extra);
}
