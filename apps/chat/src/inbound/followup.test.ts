// Chat that keeps up (docs/chat.md): `/incident status` and `escalate`, the card's Escalate button,
// people's messages on the timeline (`chat_timeline_sync`), and questions asked of the bot.

import { users } from '@firebreak/db';
import { CreateEscalationPolicyInput } from '@firebreak/schema';
import {
  createEscalationPolicy,
  runDueEscalations,
  setDefaultEscalationPolicy,
  updateSettings,
} from '@firebreak/services';
import { eventCallback } from '@firebreak/testing';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type ChatTestApp, newChannelId, startChatTestApp } from './chat-test-app';

let s: ChatTestApp;
beforeAll(async () => {
  s = await startChatTestApp();
});
afterAll(() => s.cleanup());

const alice = { user_id: 'U0ALICE01', user_name: 'alice' };
const run = async (channel: string, text: string) =>
  (await s.command({ ...alice, channel_id: channel, text })).body;
const entriesOf = async (id: string, type: string) =>
  (await s.timeline(id)).filter((e: { type: string }) => e.type === type);

let policies = 0;
async function withPolicy(): Promise<void> {
  const policy = await createEscalationPolicy(
    s.runtime.ctx,
    CreateEscalationPolicyInput.parse({
      name: `Primary ${++policies}`,
      tiers: [
        { target_type: 'users', user_ids: [s.admin.id], timeout_seconds: 300 },
        { target_type: 'users', user_ids: [s.admin.id], timeout_seconds: 300 },
      ],
    }),
  );
  await setDefaultEscalationPolicy(s.runtime.ctx, policy.id);
}

describe('/incident status', () => {
  it('answers only the caller with state, severity, lead and the last 5 entries in words', async () => {
    const channel = newChannelId();
    const incident = await s.incidentInChannel(channel, 'Checkout <502s>');
    for (const n of [1, 2, 3, 4, 5]) await run(channel, `note step ${n} & counting`);
    await run(channel, 'ack');
    const body = await run(channel, 'status');
    expect(body.response_type).toBe('ephemeral');
    const lines = body.text.split('\n');
    expect(lines[0]).toBe(`*INC-${incident.number}: Checkout &lt;502s&gt;*`);
    expect(lines[1]).toBe('State: acknowledged · Severity: critical · Lead: nobody');
    expect(lines[2]).toBe('Latest 5 timeline entries:');
    expect(lines.slice(3)).toHaveLength(5);
    // The date with the time: an incident can last days.
    const today = new Date().toISOString().slice(0, 10);
    expect(lines[3]).toMatch(
      new RegExp(`^• ${today} \\d\\d:\\d\\d UTC Alice Doe: note: step 2 &amp; counting$`),
    );
    expect(lines[7]).toMatch(
      new RegExp(`^• ${today} \\d\\d:\\d\\d UTC Alice Doe: triggered → acknowledged$`),
    );
  });

  it('answers only Firebreak users (viewers too): entries the channel never sees stay with them', async () => {
    s.fake.addUser({ id: 'U0NOMAIL1', name: 'nomail', realName: 'No Mail' });
    await users.insertUser(s.runtime.sql, {
      email: 'vera@example.test',
      name: 'Vera Viewer',
      role: 'viewer',
      slackUserId: 'U0VERA001',
    });
    const channel = newChannelId();
    const incident = await s.incidentInChannel(channel);
    await s.runtime.sql`
      insert into timeline_entries (id, incident_id, type, actor_type, actor_name, data, created_at)
      values (gen_random_uuid(), ${incident.id}, 'ai_summary', 'ai', 'model', ${s.runtime.sql.json({ text: 'Secret summary' })}, now())`;
    const stranger = await s.command({
      user_id: 'U0NOMAIL1',
      user_name: 'nomail',
      channel_id: channel,
      text: 'status',
    });
    expect(stranger.body).toEqual({
      response_type: 'ephemeral',
      text: expect.stringContaining('Firebreak cannot tell which Firebreak user you are'),
    });
    expect(stranger.body.text).not.toContain('Secret summary');
    const viewer = await s.command({
      user_id: 'U0VERA001',
      user_name: 'vera',
      channel_id: channel,
      text: 'status',
    });
    expect(viewer.body.text).toContain('AI summary: Secret summary');
  });

  it('explains itself outside an incident channel', async () => {
    const body = await run(newChannelId(), 'status');
    expect(body.text).toContain('This channel is not an incident channel');
  });
});

describe('escalating from chat', () => {
  it('`/incident escalate` pages the next tier and says which; then says none is left', async () => {
    await withPolicy();
    const channel = newChannelId();
    const incident = await s.incidentInChannel(channel);
    await runDueEscalations(s.runtime.ctx);
    expect(await run(channel, 'escalate')).toEqual({
      response_type: 'ephemeral',
      text: `You escalated INC-${incident.number}: tier 2 is being paged.`,
    });
    const [, manual] = await entriesOf(incident.id, 'escalation_triggered');
    expect(manual).toMatchObject({
      actor: { type: 'chat', name: 'Alice Doe' },
      data: { tier: 2, manual: true },
    });
    const again = await run(channel, 'escalate');
    expect(again.text).toContain(
      `INC-${incident.number}: Incident #${incident.number} has already paged the last tier`,
    );
    expect(await entriesOf(incident.id, 'escalation_triggered')).toHaveLength(2);
  });

  it('the card’s Escalate button pages the tier it names as the clicking user; a second click is told it was paged', async () => {
    await withPolicy();
    const channel = newChannelId();
    const incident = await s.incidentInChannel(channel);
    await runDueEscalations(s.runtime.ctx);
    const click = (responseUrl: string, value = `${incident.id}:2`) =>
      s.click({
        actionId: 'incident_escalate',
        value,
        userId: 'U0ALICE01',
        userName: 'alice',
        channelId: channel,
        responseUrl,
      });
    const first = s.fake.responseUrl('actions');
    const second = s.fake.responseUrl('actions');
    // A double click: both name tier 2, one pages it.
    const clicks = await Promise.all([click(first), click(second)]);
    expect(clicks.map((c) => c.status)).toEqual([200, 200]);
    expect(await entriesOf(incident.id, 'escalation_triggered')).toHaveLength(2);
    await expect.poll(() => s.fake.hookPostsTo(first).length + s.fake.hookPostsTo(second).length).toBe(1);
    const told = [...s.fake.hookPostsTo(first), ...s.fake.hookPostsTo(second)];
    expect(JSON.stringify(told[0])).toContain(
      `INC-${incident.number}: Tier 2 was already paged: someone escalated incident #${incident.number} a moment ago`,
    );
    // A button without a tier (a card from before) still pages the next one, or says none is left.
    const third = s.fake.responseUrl('actions');
    await click(third, incident.id);
    await expect.poll(() => s.fake.hookPostsTo(third).length).toBe(1);
    expect(JSON.stringify(s.fake.hookPostsTo(third)[0])).toContain('already paged the last tier');
    expect(await entriesOf(incident.id, 'escalation_triggered')).toHaveLength(2);
  });

  it('refuses a viewer and an unmatched chat user, by command and by button, paging nothing', async () => {
    await withPolicy();
    await users.insertUser(s.runtime.sql, {
      email: 'val@example.test',
      name: 'Val Viewer',
      role: 'viewer',
      slackUserId: 'U0VAL0001',
    });
    s.fake.addUser({ id: 'U0NOMAIL2', name: 'anon', realName: 'Anon' });
    const channel = newChannelId();
    const incident = await s.incidentInChannel(channel);
    await runDueEscalations(s.runtime.ctx);
    const typed = async (user_id: string) =>
      (await s.command({ user_id, user_name: 'x', channel_id: channel, text: 'escalate' })).body;
    expect(await typed('U0VAL0001')).toEqual({
      response_type: 'ephemeral',
      text: expect.stringContaining('role is viewer'),
    });
    expect((await typed('U0NOMAIL2')).text).toContain('Firebreak cannot tell which Firebreak user you are');
    for (const userId of ['U0VAL0001', 'U0NOMAIL2']) {
      const hook = s.fake.responseUrl('actions');
      await s.click({
        actionId: 'incident_escalate',
        value: `${incident.id}:2`,
        userId,
        userName: 'x',
        channelId: channel,
        responseUrl: hook,
      });
      await expect.poll(() => s.fake.hookPostsTo(hook).length).toBe(1);
      expect(JSON.stringify(s.fake.hookPostsTo(hook)[0])).toMatch(
        /role is viewer|cannot tell which Firebreak user/,
      );
    }
    expect(await entriesOf(incident.id, 'escalation_triggered')).toHaveLength(1);
  });
});

describe('messages on the timeline', () => {
  const message = (channel: string, fields: Record<string, unknown>) =>
    eventCallback({ type: 'message', channel, channel_type: 'channel', user: 'U0ALICE01', ...fields });
  const setSync = (on: boolean) => updateSettings(s.runtime.ctx, { chat_timeline_sync: on });

  it('are copied while chat_timeline_sync is on, once per message, people only', async () => {
    const channel = newChannelId();
    const incident = await s.incidentInChannel(channel);
    await setSync(false);
    await s.event(message(channel, { text: 'before sync', ts: '1700000000.000100' }));
    await setSync(true);
    const said = message(channel, { text: 'rolling back <now>', ts: '1700000000.000200' });
    expect((await s.event(said)).status).toBe(200);
    // Redelivered (same event id) and the same message under another event id: stored once.
    await s.event(said);
    await s.event(message(channel, { text: 'rolling back <now>', ts: '1700000000.000200' }));
    await s.event(message(channel, { text: 'a bot', ts: '1700000000.000300', bot_id: 'B0OTHER01' }));
    await s.event(message(channel, { text: 'ours', ts: '1700000000.000400', user: 'U0BOTUSR1' }));
    await s.event(
      message(channel, {
        subtype: 'message_changed',
        ts: '1700000000.000500',
        message: { text: 'edited', user: 'U0ALICE01' },
      }),
    );
    await s.event(message(channel, { subtype: 'message_deleted', ts: '1700000000.000600' }));
    await s.event(message(newChannelId(), { text: 'elsewhere', ts: '1700000000.000700' }));
    await s.event(message(channel, { subtype: 'channel_join', text: 'joined', ts: '1700000000.000800' }));
    const copied = await entriesOf(incident.id, 'chat_message');
    expect(copied).toEqual([
      expect.objectContaining({
        actor: expect.objectContaining({ type: 'chat' }),
        data: {
          text: 'rolling back <now>',
          chat_user_id: 'U0ALICE01',
          ts: '1700000000.000200',
          channel_id: channel,
        },
      }),
    ]);
    await setSync(false);
  });

  it('copies people’s messages that carry a subtype: thread replies sent to the channel, files, /me', async () => {
    const channel = newChannelId();
    const incident = await s.incidentInChannel(channel);
    await setSync(true);
    try {
      await s.event(
        message(channel, {
          subtype: 'thread_broadcast',
          text: 'also here',
          ts: '1700000500.000100',
          thread_ts: '1700000400.000100',
        }),
      );
      await s.event(message(channel, { subtype: 'file_share', text: 'the graph', ts: '1700000500.000200' }));
      await s.event(message(channel, { subtype: 'me_message', text: 'is on it', ts: '1700000500.000300' }));
      await s.event(message(channel, { subtype: 'bot_message', text: 'beep', ts: '1700000500.000400' }));
      await s.event(message(channel, { subtype: 'channel_topic', text: 'topic', ts: '1700000500.000500' }));
      const texts = (await entriesOf(incident.id, 'chat_message')).map(
        (e: { data: { text: string } }) => e.data.text,
      );
      expect(texts).toEqual(['also here', 'the graph', 'is on it']);
    } finally {
      await setSync(false);
    }
  });
});

describe('questions for the bot', () => {
  const mention = (channel: string, text: string, ts: string) =>
    eventCallback({ type: 'app_mention', channel, user: 'U0ALICE01', text, ts });
  const questions = () =>
    s.runtime.sql<
      {
        id: string;
        incident_id: string | null;
        question: string;
        answer: string | null;
        request_id: string | null;
      }[]
    >`
      select id, incident_id, question, answer, request_id from chat_questions order by created_at, id`;
  const answerJobs = async (id: string) =>
    (
      await s.runtime
        .sql`select 1 from outbox where job_name = 'chat.answer_question' and payload ->> 'question_id' = ${id}`
    ).length;

  it('with AI off: the thread is told so; outside incident channels: that it answers only there; once each', async () => {
    const channel = newChannelId();
    const incident = await s.incidentInChannel(channel);
    const asked = mention(channel, '<@U0BOTUSR1> what broke?', '1700000100.000100');
    await s.event(asked);
    await s.event(asked);
    await s.event(mention('C0NOTINC01', '<@U0BOTUSR1> hello', '1700000100.000200'));
    const [inChannel, elsewhere, ...more] = await questions();
    expect(more).toEqual([]);
    expect(inChannel).toMatchObject({ incident_id: incident.id, question: 'what broke?', request_id: null });
    expect(inChannel!.answer).toMatch(/^AI is off for this installation/);
    expect(elsewhere).toMatchObject({ incident_id: null });
    expect(elsewhere!.answer).toMatch(/only in incident channels/);
    expect(await answerJobs(inChannel!.id)).toBe(1);
    expect(await answerJobs(elsewhere!.id)).toBe(1);
  });
});

describe('questions for the bot, with AI on', () => {
  let ai: ChatTestApp;
  beforeAll(async () => {
    // No AI worker runs here: questions asked stay pending, which is what the limit counts.
    ai = await startChatTestApp({
      env: { AI_PROVIDER: 'openai', AI_API_KEY: 'k', AI_MODEL: 'm', AI_BASE_URL: 'http://127.0.0.1:9/v1' },
    });
  });
  afterAll(() => ai.cleanup());

  const ask = (channel: string, user: string, ts: string) =>
    ai.event(eventCallback({ type: 'app_mention', channel, user, text: '<@U0BOTUSR1> what broke?', ts }));
  const questionsIn = (incidentId: string) =>
    ai.runtime.sql<{ chat_user_id: string; answer: string | null; request_id: string | null }[]>`
      select chat_user_id, answer, request_id from chat_questions where incident_id = ${incidentId}
      order by message_ts`;

  it('answers only Firebreak users (viewers too); others are told why in the thread, and no AI is asked', async () => {
    ai.fake.addUser({ id: 'U0NOMAIL3', name: 'anon', realName: 'Anon' });
    await users.insertUser(ai.runtime.sql, {
      email: 'vi@example.test',
      name: 'Vi Viewer',
      role: 'viewer',
      slackUserId: 'U0VI00001',
    });
    const channel = newChannelId();
    const incident = await ai.incidentInChannel(channel);
    await ask(channel, 'U0NOMAIL3', '1700000600.000100');
    await ask(channel, 'U0VI00001', '1700000600.000200');
    const [stranger, viewer] = await questionsIn(incident.id);
    expect(stranger).toEqual({
      chat_user_id: 'U0NOMAIL3',
      answer:
        'I answer only people Firebreak knows. Firebreak cannot tell which Firebreak user you are: your chat ' +
        'profile shows no e-mail address. Ask a Firebreak admin to set your chat user id on your Firebreak user.',
      request_id: null,
    });
    expect(viewer).toMatchObject({ chat_user_id: 'U0VI00001', answer: null, request_id: expect.any(String) });
    const requests = await ai.runtime.sql`select id from ai_requests where kind = 'chat_answer'`;
    expect(requests).toHaveLength(1);
  });

  it('keeps at most 3 AI answers pending per incident; the next question is asked to wait', async () => {
    const channel = newChannelId();
    const incident = await ai.incidentInChannel(channel);
    const other = newChannelId();
    const elsewhere = await ai.incidentInChannel(other);
    for (const n of [1, 2, 3, 4]) await ask(channel, 'U0ALICE01', `1700000700.00010${n}`);
    await ask(other, 'U0ALICE01', '1700000700.000200');
    const asked = await questionsIn(incident.id);
    expect(asked.map((q) => q.request_id !== null)).toEqual([true, true, true, false]);
    expect(asked[3]!.answer).toBe(
      'I am still working on 3 questions about this incident. Please wait for those answers, then ask again.',
    );
    // The limit is per incident.
    expect((await questionsIn(elsewhere.id))[0]!.request_id).not.toBeNull();
    // Once one is answered, there is room again.
    await ai.runtime.sql`update ai_requests set status = 'done' where id = ${asked[0]!.request_id}`;
    await ask(channel, 'U0ALICE01', '1700000700.000105');
    expect((await questionsIn(incident.id))[4]!.request_id).not.toBeNull();
  });
});
