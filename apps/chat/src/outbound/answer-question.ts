import type { Job } from '@firebreak/queue';
import { type ChatQuestion, readChatQuestion, recordChatReply } from '@firebreak/services';
import { ChatCallError } from './errors';
import { reportChatFailure, reportRefusal } from './failures';
import { type ChatJob, isLastTry, type OutboundDeps, runChatJob } from './job';

/**
 * `chat.answer_question` (docs/chat.md#questions): posts the answer to a question asked of the bot in
 * the question's thread, once. Under the incident's chat lock when the question was asked in an
 * incident channel (so it is ordered with the channel's other posts), else under a lock of its own.
 */
export async function answerQuestion(deps: OutboundDeps, job: Job, questionId: string): Promise<void> {
  const question = await readChatQuestion(deps.ctx, questionId);
  if (!question || question.answer === null || question.replied_at !== null) return;
  // Questions are asked of the Slack bot (events), and answered there.
  await runChatJob(
    deps,
    job,
    question.incident_id ?? question.id,
    (jc) => postAnswer(jc, question.id),
    'slack',
  );
}

async function postAnswer(jc: ChatJob, questionId: string): Promise<void> {
  // Read again under the lock: a duplicate job that waited for it finds the reply recorded.
  const question = await readChatQuestion(jc.ctx, questionId);
  if (!question || question.answer === null || question.replied_at !== null) return;
  try {
    // Escaped whatever it is: the AI's answer may repeat what a prompt-injected alert or note
    // said (`<!here>`, `<@U…>`, `<https://evil|label>`), and must read as text, not act as markup.
    const text = jc.platform.render.plainText(question.answer!);
    // A reply Slack accepted without a `ts` is recorded as posted (no id): posting it again would
    // show the answer twice.
    const replyId = await jc.call('answer_question', (platform) =>
      platform.postMessage(question.channel_id, { text }, { threadId: question.thread_ts }),
    );
    await recordChatReply(jc.ctx, question.id, { replyTs: replyId, error: null });
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
