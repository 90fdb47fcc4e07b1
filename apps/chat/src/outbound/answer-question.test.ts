// What the jobs do with a chat answer that lacks a message id: an answer in a thread is posted once
// and recorded without an id; a card or timeline entry, whose id later edits need, is tried again.
// Against the fake chat API behind a client that drops `ts` from chat.postMessage's answers, on real
// PostgreSQL.
import { randomUUID } from 'node:crypto';
import { createChatClient } from '@firebreak/chat-client';
import type { Job } from '@firebreak/queue';
import { createTestRuntime, type TestRuntime } from '@firebreak/runtime/testing';
import { type FakeChatApi, startFakeChatApi } from '@firebreak/testing';
import type { WebClient } from '@slack/web-api';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { slackPlatform } from '../platform/slack/platform';
import { answerQuestion } from './answer-question';
import { postInChannel } from './channel-calls';
import { ChatCallError } from './errors';
import { runChatJob } from './job';

let fake: FakeChatApi;
let runtime: TestRuntime;
beforeAll(async () => {
  fake = await startFakeChatApi();
  runtime = await createTestRuntime();
});
afterAll(async () => {
  await runtime.cleanup();
  await fake.close();
});

/** A Web API client whose chat.postMessage answers are `ok` without `ts` (the post still happens). */
function clientWithoutTs(): WebClient {
  const real = createChatClient({ botToken: fake.botToken, apiUrl: fake.url, signingSecret: undefined })!;
  return new Proxy(real, {
    get(target, key) {
      if (key !== 'chat') return Reflect.get(target, key, target);
      return {
        ...target.chat,
        postMessage: async (args: Parameters<WebClient['chat']['postMessage']>[0]) => {
          const { ts: _dropped, ...answer } = await target.chat.postMessage(args);
          return answer;
        },
      };
    },
  });
}

const deps = () => ({
  ctx: runtime.ctx,
  platform: slackPlatform(clientWithoutTs()),
  publicUrl: 'https://firebreak.example.test',
});
// Not the last try: a transient failure would be thrown for BullMQ to try again.
const firstTry = () =>
  ({
    id: 'test-job',
    name: 'chat.answer_question',
    attemptsMade: 0,
    opts: { attempts: 25 },
    token: 'test-token',
    moveToDelayed: async () => undefined,
  }) as unknown as Job;

describe('a chat answer without a message id', () => {
  it('answers a question once and records the reply without an id', async () => {
    const channel = fake.addChannel({ name: `questions-${randomUUID().slice(0, 8)}` });
    const [question] = await runtime.sql<{ id: string }[]>`
      insert into chat_questions (incident_id, channel_id, thread_ts, message_ts, question, answer, created_at)
      values (null, ${channel.id}, '1700000900.000100', '1700000900.000100', 'status?', 'All clear.', now())
      returning id`;
    await answerQuestion(deps(), firstTry(), question!.id);
    // What BullMQ would do with a job that had thrown: run it again.
    await answerQuestion(deps(), firstTry(), question!.id);
    expect(fake.messages(channel.id).map((m) => [m.text, m.threadTs])).toEqual([
      ['All clear.', '1700000900.000100'],
    ]);
    const [row] = await runtime.sql`
      select reply_ts, reply_error, replied_at is not null as replied from chat_questions where id = ${question!.id}`;
    expect(row).toEqual({ reply_ts: null, reply_error: null, replied: true });
  });

  it('is still an incomplete answer for a post in the incident channel, which is tried again', async () => {
    const channel = fake.addChannel({ name: `entries-${randomUUID().slice(0, 8)}` });
    const failure = await runChatJob(deps(), firstTry(), randomUUID(), (jc) =>
      postInChannel(jc, channel.id, 'post_message', { text: 'Acknowledged by Alice' }).then(() => undefined),
    ).catch((error: unknown) => error);
    expect(failure).toBeInstanceOf(ChatCallError);
    expect(failure).toMatchObject({
      operation: 'post_message',
      problem: { kind: 'transient', code: 'no_ts_in_answer' },
    });
  });
});
