// Chat that keeps up (docs/chat.md), outbound: invites to the incident channel, a manual escalation of
// an acknowledged incident paging by chat, and questions for the bot answered in their thread — against
// the fake chat API and the fake AI provider, on real PostgreSQL and Redis.

import { createChatClient } from '@firebreak/chat-client';
import { CreateEscalationPolicyInput } from '@firebreak/schema';
import {
  addNote,
  askQuestionInChat,
  createEscalationPolicy,
  escalateNow,
  setDefaultEscalationPolicy,
  updateIncident,
} from '@firebreak/services';
import { deleteRedisKeys, type FakeAiProvider, startFakeAiProvider, waitFor } from '@firebreak/testing';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { inviteOwedPeople } from '../apps/chat/src/outbound/invites';
import { runChatJob } from '../apps/chat/src/outbound/job';
import { type RunningChatWorker, startChatWorker } from '../apps/chat/src/outbound/worker';
import { chatAnswerHandler } from '../apps/worker/src/ai/chat-answer';
import {
  actor,
  type ChatHarness,
  chatUser,
  defaultPolicyPaging,
  PUBLIC_URL,
  startChatHarness,
} from './support/chat-outbound';

let h: ChatHarness | undefined;
let recovering: RunningChatWorker | undefined;
let ai: FakeAiProvider;
beforeAll(async () => {
  ai = await startFakeAiProvider({ apiKey: 'chat-answer-test-key' });
});
afterAll(() => ai.close());
afterEach(async () => {
  await recovering?.stop();
  recovering = undefined;
  await h?.stop();
  h = undefined;
});

/** A chat worker whose recovery pass runs only when the test asks (no grace: the work is old enough). */
function startRecoveringChat(harness: ChatHarness): RunningChatWorker {
  recovering = startChatWorker(harness.runtime.ctx, {
    redis: harness.runtime.redisConfig,
    chat: harness.runtime.config.chat,
    publicUrl: PUBLIC_URL,
    recovery: { graceMs: 0, intervalMs: 60 * 60 * 1000 },
  });
  return recovering;
}

/** A two-tier default policy: Alice, then Bob, an hour apart. */
async function twoTiers(harness: ChatHarness) {
  const alice = await chatUser(harness.runtime, 'Alice', 'U0ALICE01');
  const bob = await chatUser(harness.runtime, 'Bob', 'U0BOB0002');
  const policy = await createEscalationPolicy(
    harness.runtime.ctx,
    CreateEscalationPolicyInput.parse({
      name: `Two tiers ${Date.now()}-${Math.random()}`,
      tiers: [
        { target_type: 'users', user_ids: [alice.id], timeout_seconds: 3600 },
        { target_type: 'users', user_ids: [bob.id], timeout_seconds: 3600 },
      ],
    }),
  );
  await setDefaultEscalationPolicy(harness.runtime.ctx, policy.id);
  return { alice, bob };
}

const stepsOf = async (incidentId: string) =>
  (
    await h!.runtime.sql`
      select 1 from timeline_entries where incident_id = ${incidentId} and type = 'escalation_triggered'`
  ).length;

const invitesOf = (userId: string) =>
  h!.fake.callsTo('conversations.invite').filter((c) => c.args.users === userId);

describe('invites', () => {
  it('invites the commander and the people paged once each; already_in_channel is success', async () => {
    h = await startChatHarness();
    const alice = await chatUser(h.runtime, 'Alice', 'U0ALICE01');
    const bob = await chatUser(h.runtime, 'Bob', 'U0BOB0002');
    const ghost = await chatUser(h.runtime, 'Ghost', 'U0GHOST99');
    await defaultPolicyPaging(h.runtime, [bob.id, ghost.id]);
    // The first invite (Alice's: they go in chat id order) finds her there already.
    h.fake.failNext('conversations.invite', 'already_in_channel');
    const incident = await h.open('Payments down', { commander_id: alice.id });
    const channelId = await h.channelOf(incident.id);
    await h.idle();
    await addNote(h.runtime.ctx, actor, { id: incident.id }, { text: 'Rolled back' });
    await updateIncident(h.runtime.ctx, actor, { id: incident.id }, { status: 'acknowledged' });
    await h.idle();

    expect(invitesOf('U0ALICE01')).toHaveLength(1);
    expect(invitesOf('U0BOB0002')).toHaveLength(1);
    expect(invitesOf('U0GHOST99')).toHaveLength(1);
    expect(h.fake.channel(channelId)!.members.has('U0BOB0002')).toBe(true);
    const rows = await h.runtime.sql<{ slack_user_id: string; error: string | null }[]>`
      select chat_user_id as slack_user_id, error from chat_channel_invites where incident_id = ${incident.id} order by slack_user_id`;
    expect(rows).toEqual([
      { slack_user_id: 'U0ALICE01', error: null },
      { slack_user_id: 'U0BOB0002', error: null },
      { slack_user_id: 'U0GHOST99', error: 'user_not_found' },
    ]);
    // Only the refusal is a failure, logged in the runbook's words; the timeline records the ghost's
    // failed page (its own chat_failed entry), not the invite as well.
    expect(await h.failures(incident.id)).toEqual([{ operation: 'direct_message', code: 'user_not_found' }]);
    expect(h.runtime.logs.messages()).toContain('slack: invite failed: user_not_found');
  });

  it('a refusal about the installation is logged, not recorded per person: a later job invites', async () => {
    h = await startChatHarness();
    const alice = await chatUser(h.runtime, 'Alice', 'U0ALICE01');
    h.fake.failNext('conversations.invite', 'missing_scope');
    const incident = await h.open('Invites before the scope', { commander_id: alice.id });
    await h.channelOf(incident.id);
    await h.idle();
    expect(invitesOf('U0ALICE01')).toHaveLength(1);
    expect(await h.runtime.sql`select 1 from chat_channel_invites`).toHaveLength(0);
    expect(h.runtime.logs.messages()).toContain('slack: invite failed: missing_scope');
    // The app fixed (the fault was one call): the incident's next chat job invites her.
    await addNote(h.runtime.ctx, actor, { id: incident.id }, { text: 'Scope added' });
    await h.idle();
    expect(invitesOf('U0ALICE01')).toHaveLength(2);
    const rows = await h.runtime.sql`select chat_user_id as slack_user_id, error from chat_channel_invites`;
    expect(rows).toEqual([{ slack_user_id: 'U0ALICE01', error: null }]);
    expect(await h.failures(incident.id)).toEqual([]);
  });

  it('an outage on the job’s last try leaves the invite owed, writes no chat_failed, and fails no job', async () => {
    h = await startChatHarness();
    const alice = await chatUser(h.runtime, 'Alice', 'U0ALICE01');
    const incident = await h.open('Invites in an outage');
    const channelId = await h.channelOf(incident.id);
    await h.idle();
    await h.runtime.sql`update incidents set commander_id = ${alice.id} where id = ${incident.id}`;
    const deps = {
      ctx: h.runtime.ctx,
      client: createChatClient(h.runtime.config.chat)!,
      publicUrl: PUBLIC_URL,
      directChannels: new Map<string, string>(),
    };
    type Job = Parameters<typeof runChatJob>[1];
    const lastTry = {
      id: 'test-job',
      name: 'chat.post_timeline_entry',
      attemptsMade: 24,
      opts: { attempts: 25 },
    };
    h.fake.outage();
    try {
      await runChatJob(deps, lastTry as unknown as Job, incident.id, (jc) => inviteOwedPeople(jc, channelId));
    } finally {
      h.fake.endOutage();
    }
    expect(await h.runtime.sql`select 1 from chat_channel_invites`).toHaveLength(0);
    expect(await h.failures(incident.id)).toEqual([]);
    expect(h.runtime.logs.messages().some((m) => m.startsWith('slack: invite failed: '))).toBe(true);
    // Chat back: the next job invites her.
    await runChatJob(deps, lastTry as unknown as Job, incident.id, (jc) => inviteOwedPeople(jc, channelId));
    expect(
      await h.runtime.sql`select chat_user_id as slack_user_id, error from chat_channel_invites`,
    ).toEqual([{ slack_user_id: 'U0ALICE01', error: null }]);
  });
});

describe('escalating an acknowledged incident', () => {
  it('pages the next tier by direct message although the incident is taken', async () => {
    h = await startChatHarness();
    const alice = await chatUser(h.runtime, 'Alice', 'U0ALICE01');
    const bob = await chatUser(h.runtime, 'Bob', 'U0BOB0002');
    const policy = await createEscalationPolicy(
      h.runtime.ctx,
      CreateEscalationPolicyInput.parse({
        name: `Two tiers ${Date.now()}`,
        tiers: [
          { target_type: 'users', user_ids: [alice.id], timeout_seconds: 3600 },
          { target_type: 'users', user_ids: [bob.id], timeout_seconds: 3600 },
        ],
      }),
    );
    await setDefaultEscalationPolicy(h.runtime.ctx, policy.id);
    const incident = await h.open('Search slow');
    await h.channelOf(incident.id);
    await waitFor(async () => h!.fake.dms('U0ALICE01').length === 1 || undefined, { what: 'tier 1 page' });
    await updateIncident(h.runtime.ctx, actor, { id: incident.id }, { status: 'acknowledged' });
    expect(
      (await escalateNow(h.runtime.ctx, actor, { id: incident.id }, { chat: true })).escalated_to_tier,
    ).toBe(2);
    await h.idle();
    expect(h.fake.dms('U0BOB0002')).toHaveLength(1);
    expect(h.fake.dms('U0ALICE01')).toHaveLength(1);
  });

  it('a page asked for while acknowledged is recovered after Redis lost its job', async () => {
    h = await startChatHarness({ startChat: false });
    await twoTiers(h);
    const incident = await h.open('Help lost with Redis');
    await waitFor(async () => (await stepsOf(incident.id)) === 1 || undefined, { what: 'tier 1 step' });
    await updateIncident(h.runtime.ctx, actor, { id: incident.id }, { status: 'acknowledged' });
    await escalateNow(h.runtime.ctx, actor, { id: incident.id }, { chat: true });
    await waitFor(
      async () => {
        await h!.worker.tick();
        const [row] = await h!.runtime.sql<{ n: number }[]>`
          select count(*)::int as n from outbox where sent_at is null`;
        return row!.n === 0 || undefined;
      },
      { what: 'outbox relayed' },
    );
    await deleteRedisKeys(h.runtime.ctx.redisPrefix);
    const chat = startRecoveringChat(h);
    await waitFor(async () => (await chat.recoverLostWork()) === 0 || undefined, {
      what: 'nothing owed',
      timeoutMs: 30_000,
    });
    await h.idle();
    // Bob's help page arrives; Alice's tier-1 page, late once the incident was taken, does not.
    expect(h.fake.dms('U0BOB0002')).toHaveLength(1);
    expect(h.fake.dms('U0ALICE01')).toHaveLength(0);
  });

  it('a manual step taken while triggered and acknowledged before chat sent it is skipped like any late page', async () => {
    h = await startChatHarness({ startChat: false });
    await twoTiers(h);
    const incident = await h.open('Escalated, then taken');
    await waitFor(async () => (await stepsOf(incident.id)) === 1 || undefined, { what: 'tier 1 step' });
    await escalateNow(h.runtime.ctx, actor, { id: incident.id }, { chat: true });
    await updateIncident(h.runtime.ctx, actor, { id: incident.id }, { status: 'acknowledged' });
    h.startChat();
    await h.channelOf(incident.id);
    await h.idle();
    expect(h.fake.dms('U0BOB0002')).toHaveLength(0);
    expect(h.runtime.logs.messages()).toContain('chat: page skipped, incident taken');
  });
});

describe('questions for the bot', () => {
  const aiEnv = {
    AI_PROVIDER: 'openai',
    AI_BASE_URL: '',
    AI_API_KEY: 'chat-answer-test-key',
    AI_MODEL: 'chat-test-model',
  };
  const ask = (channelId: string, text: string, ts: string, aiConfigured: boolean) =>
    askQuestionInChat(h!.runtime.ctx, {
      channelId,
      chatUserId: 'U0ALICE01',
      text,
      ts,
      threadTs: null,
      aiConfigured,
      refusal: async () => undefined,
    });
  const repliesIn = (channelId: string, ts: string) =>
    h!.fake.messages(channelId).filter((m) => m.threadTs === ts);

  it('with AI on: answers in the thread from that incident’s timeline only', async () => {
    h = await startChatHarness({ env: { ...aiEnv, AI_BASE_URL: ai.openAiBaseUrl } });
    // A prompt-injected note made the model repeat markup: it must reach the thread as text.
    ai.setResponder(
      () =>
        'The deploy was rolled back [E2]; error rates are falling [E3, E4]. <!here> ask <@U0BOB0002> ' +
        'or read <https://evil.example/login|the runbook> & retry.',
    );
    const other = await h.open('Unrelated billing outage');
    const incident = await h.open('Checkout 502s');
    await addNote(h.runtime.ctx, actor, { id: incident.id }, { text: 'Rolled back deploy 412' });
    const channelId = await h.channelOf(incident.id);
    await h.channelOf(other.id);
    expect(await ask(channelId, 'what did we try?', '1700000200.000100', true)).toBe('ai_asked');
    const [reply] = await waitFor(
      async () => {
        const replies = repliesIn(channelId, '1700000200.000100');
        return replies.length > 0 ? replies : undefined;
      },
      { what: 'answer in the thread', timeoutMs: 20_000 },
    );
    expect(reply!.text).toBe(
      'The deploy was rolled back; error rates are falling. &lt;!here&gt; ask &lt;@U0BOB0002&gt; ' +
        'or read &lt;https://evil.example/login|the runbook&gt; &amp; retry.',
    );
    const prompt = ai.lastRequest()!.prompt;
    expect(prompt).toContain('what did we try?');
    expect(prompt).toContain('Rolled back deploy 412');
    expect(prompt).not.toContain('Unrelated billing outage');
    const [request] = await h.runtime.sql`select kind, status from ai_requests where kind = 'chat_answer'`;
    expect(request).toMatchObject({ kind: 'chat_answer', status: 'done' });
    await h.idle();
    expect(repliesIn(channelId, '1700000200.000100')).toHaveLength(1);
  });

  it('a failed AI answer is said in the thread', async () => {
    h = await startChatHarness({ env: { ...aiEnv, AI_BASE_URL: ai.openAiBaseUrl } });
    const incident = await h.open('Queue backlog');
    const channelId = await h.channelOf(incident.id);
    // The provider keeps failing; the last try (run here, not after the worker's backoff) gives up.
    ai.failNext({ status: 500, times: 1000, shouldRetry: false });
    try {
      await ask(channelId, 'why?', '1700000300.000100', true);
      const [row] = await h.runtime.sql<{ request_id: string }[]>`select request_id from chat_questions`;
      const failing = { complete: async () => Promise.reject(new Error('provider answered 500')) };
      type Job = Parameters<ReturnType<typeof chatAnswerHandler>>[1];
      const lastTry = { attemptsMade: 2, opts: { attempts: 3 } } as unknown as Job;
      await chatAnswerHandler(h.runtime.ctx, failing)({ request_id: row!.request_id }, lastTry);
      const [request] = await h.runtime
        .sql`select status, error from ai_requests where id = ${row!.request_id}`;
      expect(request).toEqual({ status: 'failed', error: 'provider answered 500' });
      const [reply] = await waitFor(
        async () => {
          const replies = repliesIn(channelId, '1700000300.000100');
          return replies.length > 0 ? replies : undefined;
        },
        { what: 'failure reply', timeoutMs: 20_000 },
      );
      expect(reply!.text).toMatch(/^Sorry, I could not answer that: the AI request failed/);
    } finally {
      ai.clearFaults();
    }
  });

  it('with AI off: the thread hears AI is off; outside incident channels: where it answers', async () => {
    h = await startChatHarness();
    const incident = await h.open('Login errors');
    const channelId = await h.channelOf(incident.id);
    const general = h.fake.addChannel({ name: 'general' });
    expect(await ask(channelId, 'status?', '1700000400.000100', false)).toBe('ai_off');
    expect(await ask(general.id, 'help', '1700000400.000200', false)).toBe('not_incident_channel');
    await h.idle();
    expect(repliesIn(channelId, '1700000400.000100').map((m) => m.text)).toEqual([
      expect.stringMatching(/^AI is off for this installation/),
    ]);
    // `<number>` would be a control sequence to Slack: it is posted escaped.
    expect(repliesIn(general.id, '1700000400.000200').map((m) => m.text)).toEqual([
      'I answer questions only in incident channels (#inc-&lt;number&gt;-…), from that incident’s timeline.',
    ]);
  });

  it('after Redis lost their jobs: an answer not posted is posted, a pending AI answer is asked again', async () => {
    h = await startChatHarness({ startChat: false, env: { ...aiEnv, AI_BASE_URL: ai.openAiBaseUrl } });
    ai.setResponder(() => 'Recovered answer.');
    const incident = await h.open('Questions lost with Redis');
    const [answered] = await h.runtime.sql<{ id: string }[]>`
      insert into chat_questions (incident_id, channel_id, thread_ts, message_ts, question, answer, created_at)
      values (${incident.id}, 'C0LOST001', '1700000800.000100', '1700000800.000100', 'status?',
              'Known answer.', now() - interval '1 minute')
      returning id`;
    const [request] = await h.runtime.sql<{ id: string }[]>`
      insert into ai_requests (kind, incident_id, created_at) values ('chat_answer', null, now() - interval '1 minute')
      returning id`;
    await h.runtime.sql`
      insert into chat_questions (incident_id, request_id, channel_id, thread_ts, message_ts, question, created_at)
      values (${incident.id}, ${request!.id}, 'C0LOST001', '1700000800.000200', '1700000800.000200', 'why?',
              now() - interval '1 minute')`;
    h.fake.addChannel({ id: 'C0LOST001', name: 'inc-lost-questions' });
    const chat = startRecoveringChat(h);
    await waitFor(
      async () => {
        await chat.recoverLostWork();
        return h!.fake.messages('C0LOST001').length === 2 || undefined;
      },
      { what: 'both answers posted', timeoutMs: 30_000 },
    );
    await h.idle();
    expect(await chat.recoverLostWork()).toBe(0);
    const posted = h.fake.messages('C0LOST001').map((m) => [m.threadTs, m.text]);
    expect(posted.sort()).toEqual([
      ['1700000800.000100', 'Known answer.'],
      ['1700000800.000200', 'Recovered answer.'],
    ]);
    const [done] = await h.runtime.sql`select status from ai_requests where id = ${request!.id}`;
    expect(done).toEqual({ status: 'done' });
    const [replied] = await h.runtime
      .sql`select replied_at is not null as replied from chat_questions where id = ${answered!.id}`;
    expect(replied).toEqual({ replied: true });
  });
});
