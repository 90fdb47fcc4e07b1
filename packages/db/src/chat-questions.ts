import type { Queryable } from './client';

/** A question asked of the bot in chat (`app_mention`) and the answer owed in its thread. */
export interface ChatQuestionRow {
  id: string;
  incident_id: string | null;
  request_id: string | null;
  channel_id: string;
  thread_ts: string;
  message_ts: string;
  chat_user_id: string | null;
  question: string;
  answer: string | null;
  reply_ts: string | null;
  reply_error: string | null;
  created_at: Date;
  replied_at: Date | null;
}

export interface NewChatQuestion {
  incidentId: string | null;
  requestId: string | null;
  channelId: string;
  threadTs: string;
  messageTs: string;
  chatUserId: string | null;
  question: string;
  /** Known at once when no AI is asked (AI off, not an incident channel). */
  answer: string | null;
  at: Date;
}

/** The question, unless this message was asked about already (a redelivered event): then undefined. */
export async function insertChatQuestion(
  sql: Queryable,
  q: NewChatQuestion,
): Promise<ChatQuestionRow | undefined> {
  const [row] = await sql<ChatQuestionRow[]>`
    insert into chat_questions (incident_id, request_id, channel_id, thread_ts, message_ts, chat_user_id,
                                question, answer, created_at)
    values (${q.incidentId}, ${q.requestId}, ${q.channelId}, ${q.threadTs}, ${q.messageTs}, ${q.chatUserId},
            ${q.question}, ${q.answer}, ${q.at})
    on conflict (channel_id, message_ts) do nothing
    returning *`;
  return row;
}

/** The AI request that answers the question (asked once the question is known to be new). */
export async function linkChatQuestionRequest(sql: Queryable, id: string, requestId: string): Promise<void> {
  await sql`update chat_questions set request_id = ${requestId} where id = ${id}`;
}

export async function findChatQuestion(sql: Queryable, id: string): Promise<ChatQuestionRow | undefined> {
  const [row] = await sql<ChatQuestionRow[]>`select * from chat_questions where id = ${id}`;
  return row;
}

export async function findChatQuestionByRequest(
  sql: Queryable,
  requestId: string,
): Promise<ChatQuestionRow | undefined> {
  const [row] = await sql<ChatQuestionRow[]>`select * from chat_questions where request_id = ${requestId}`;
  return row;
}

/** The answer to post; only while none is set, so a late AI answer never replaces a failure notice. */
export async function setChatAnswer(sql: Queryable, id: string, answer: string): Promise<boolean> {
  const result = await sql`update chat_questions set answer = ${answer} where id = ${id} and answer is null`;
  return result.count > 0;
}

/** The reply posted (`replyTs`) or refused for good (`error`); either way it is not posted again. */
export async function recordChatReply(
  sql: Queryable,
  id: string,
  reply: { replyTs: string | null; error: string | null; at: Date },
): Promise<void> {
  await sql`
    update chat_questions set reply_ts = ${reply.replyTs}, reply_error = ${reply.error}, replied_at = ${reply.at}
    where id = ${id} and replied_at is null`;
}

/**
 * How many of the incident's questions wait on a pending AI answer, with the incident's row locked
 * (`for no key update`) until the transaction ends, so concurrent questions are counted one at a time.
 */
export async function lockAndCountPendingAnswers(sql: Queryable, incidentId: string): Promise<number> {
  await sql`select 1 from incidents where id = ${incidentId} for no key update`;
  const [row] = await sql<{ pending: number }[]>`
    select count(*)::int as pending from chat_questions c join ai_requests r on r.id = c.request_id
    where c.incident_id = ${incidentId} and c.answer is null and r.kind = 'chat_answer' and r.status = 'pending'`;
  return row?.pending ?? 0;
}
