import { createTestRuntime, type TestRuntime } from '@firebreak/runtime/testing';
import {
  createIncident,
  getTelegramSettings,
  runTelegramFeed,
  type SendTelegramMessage,
  systemOrigin,
  type TelegramConfig,
  updateIncident,
  updateTelegramSettings,
} from '@firebreak/services';
import { type FakeTelegram, startFakeTelegram, waitFor } from '@firebreak/testing';
import { afterEach, describe, expect, it } from 'vitest';
import { type RunningTelegramFeed, startTelegramFeed } from './start';

// The feed's rows (docs/telegram.md#the-incident-feed): captured by the timeline's trigger in the
// entry's own transaction, failed or held back by what Telegram answers, given up, turned off.
const TOKEN = '123456:AAFAKE-fake_token_for_tests_0123456789';
const CHAT = '-1001234567890';
const PUBLIC_URL = 'https://firebreak.example.test';
const actor = { type: 'user' as const, name: 'Robin' };

let runtime: TestRuntime | undefined;
let fake: FakeTelegram | undefined;
let feed: RunningTelegramFeed | undefined;

afterEach(async () => {
  await feed?.stop();
  await runtime?.cleanup();
  await fake?.close();
  runtime = fake = feed = undefined;
});

async function start(options: { env?: Partial<TelegramConfig>; send?: SendTelegramMessage } = {}) {
  fake = await startFakeTelegram({ token: TOKEN, chats: [CHAT] });
  runtime = await createTestRuntime({ env: { PUBLIC_URL } });
  const telegram: TelegramConfig = { botToken: TOKEN, chatId: CHAT, ...options.env, apiUrl: fake.origin };
  feed = startTelegramFeed(runtime.ctx, {
    intervalMs: 3_600_000,
    telegram,
    publicUrl: PUBLIC_URL,
    ...(options.send ? { send: options.send } : {}),
  });
  await feed.runOnce();
  return { ctx: runtime.ctx, fake, telegram };
}

type Ctx = TestRuntime['ctx'];

/** A timeline entry as another process would write it, with its own clock's `created_at`. */
async function entry(ctx: Ctx, incidentId: string, type: string, data: object, createdAt = new Date()) {
  await ctx.sql`
    insert into timeline_entries (incident_id, type, actor_type, actor_name, data, created_at)
    values (${incidentId}, ${type}, 'system', 'clock', ${ctx.sql.json(data as never)}, ${createdAt})`;
}

const rows = (ctx: Ctx) =>
  ctx.sql<{ event: string; status: string; last_error: string | null }[]>`
    select event, status, last_error from telegram_feed_messages order by entry_seq`;

const minutesAgo = (m: number) => new Date(Date.now() - m * 60_000);

describe('capture', () => {
  it('captures an entry however old its created_at, exactly once, and only the events the feed tells', async () => {
    const { ctx } = await start({ send: async () => ({ kind: 'unreachable', error: 'ECONNREFUSED' }) });
    const incident = await createIncident(ctx, actor, { title: 'Late commit', severity: 'high' });
    // Written by a process whose clock is behind, or by a transaction that committed long after it began.
    await entry(
      ctx,
      incident.id,
      'status_changed',
      { from: 'triggered', to: 'acknowledged' },
      minutesAgo(20),
    );
    await entry(
      ctx,
      incident.id,
      'status_changed',
      { from: 'acknowledged', to: 'triggered' },
      minutesAgo(19),
    );
    await entry(ctx, incident.id, 'note_added', { text: 'not told' });
    await entry(ctx, incident.id, 'ai_summary', { text: 'Summary' }, minutesAgo(600));
    for (let i = 0; i < 3; i += 1) await feed!.runOnce();
    expect((await rows(ctx)).map((r) => r.event)).toEqual(['opened', 'acknowledged', 'summary']);
  });

  it('captures nothing while the feed is off, and fails what waited when it is turned off', async () => {
    const { ctx, telegram } = await start({
      env: { botToken: undefined, chatId: undefined },
      send: async () => ({ kind: 'unreachable', error: 'ECONNREFUSED' }),
    });
    const before = await createIncident(ctx, actor, { title: 'Before', severity: 'low' });
    expect(await rows(ctx)).toEqual([]);
    await updateTelegramSettings(
      ctx,
      telegram,
      { bot_token: TOKEN, feed_chat_id: CHAT },
      systemOrigin,
      PUBLIC_URL,
    );
    await feed!.runOnce();
    await createIncident(ctx, actor, { title: 'While on', severity: 'low' });
    await feed!.runOnce();
    expect(await rows(ctx)).toMatchObject([{ event: 'opened', status: 'pending' }]);

    await updateTelegramSettings(ctx, telegram, { feed_chat_id: null }, systemOrigin, PUBLIC_URL);
    await feed!.runOnce();
    expect(await rows(ctx)).toEqual([{ event: 'opened', status: 'failed', last_error: 'feed turned off' }]);
    await updateIncident(ctx, actor, { id: before.id }, { status: 'acknowledged' });
    expect(await rows(ctx)).toHaveLength(1);
    // On again: it starts fresh, with nothing of the old backlog.
    await updateTelegramSettings(ctx, telegram, { feed_chat_id: CHAT }, systemOrigin, PUBLIC_URL);
    await feed!.runOnce();
    expect((await getTelegramSettings(ctx, telegram)).feed.pending).toBe(0);
  });
});

describe('refusals', () => {
  it('holds the whole feed when the group became a supergroup, naming the new id', async () => {
    const { ctx, fake, telegram } = await start();
    fake.migrated.set(CHAT, '-1009876543210');
    fake.chats.add('-1009876543210');
    await createIncident(ctx, actor, { title: 'One', severity: 'low' });
    await createIncident(ctx, actor, { title: 'Two', severity: 'low' });
    await feed!.runOnce();
    expect((await rows(ctx)).map((r) => r.status)).toEqual(['pending', 'pending']);
    expect((await getTelegramSettings(ctx, telegram)).feed).toMatchObject({
      pending: 2,
      failing_reason: 'chat_migrated',
      last_error:
        "telegram 400: Bad Request: group chat was upgraded to a supergroup chat (the chat's new id is -1009876543210)",
    });
    expect(runtime!.logs.messages()).toContain('telegram: feed failed: chat_migrated');
  });

  it('holds the whole feed when the bot may not post, rather than dropping each message', async () => {
    const { ctx, fake, telegram } = await start();
    fake.readOnly.add(CHAT);
    await createIncident(ctx, actor, { title: 'One', severity: 'low' });
    await createIncident(ctx, actor, { title: 'Two', severity: 'low' });
    await feed!.runOnce();
    expect((await rows(ctx)).map((r) => r.status)).toEqual(['pending', 'pending']);
    expect((await getTelegramSettings(ctx, telegram)).feed.failing_reason).toBe('forbidden');
  });

  it('keeps the feed failing through a message refused for its content; clears it only on a message sent', async () => {
    const answers = [
      { kind: 'refused', status: 401, description: 'Unauthorized' },
      { kind: 'refused', status: 400, description: 'Bad Request: message is too long' },
      { kind: 'ok', result: { message_id: 9, chat: { id: Number(CHAT) } } },
    ] as const;
    let call = 0;
    let failingAtThirdSend: string | null | undefined;
    const send: SendTelegramMessage = async () => {
      if (call === 2) failingAtThirdSend = (await getTelegramSettings(ctx, telegram)).feed.failing_reason;
      return answers[call++]!;
    };
    const { ctx, telegram } = await start({ send });
    let offsetMs = 0;
    ctx.now = () => new Date(Date.now() + offsetMs);
    await createIncident(ctx, actor, { title: 'One', severity: 'low' });
    await createIncident(ctx, actor, { title: 'Two', severity: 'low' });
    await feed!.runOnce(); // 401: the feed fails
    expect((await getTelegramSettings(ctx, telegram)).feed.failing_reason).toBe('unauthorized');
    offsetMs += 60_000;
    // The first message is refused for its content, then the second goes.
    await feed!.runOnce();
    expect(failingAtThirdSend).toBe('unauthorized');
    expect((await rows(ctx)).map((r) => r.status)).toEqual(['failed', 'sent']);
    expect((await getTelegramSettings(ctx, telegram)).feed.failing_reason).toBeNull();
  });
});

describe('a backlog', () => {
  it('gives up events older than a day (one line for all), dates late ones, and tells the title as it was', async () => {
    const { ctx, fake } = await start();
    const incident = await createIncident(ctx, actor, { title: 'Old title', severity: 'critical' });
    await updateIncident(ctx, actor, { id: incident.id }, { title: 'New title', severity: 'low' });
    for (const hours of [30, 26, 25]) {
      await entry(ctx, incident.id, 'ai_summary', { text: `stale ${hours}` }, minutesAgo(hours * 60));
    }
    await entry(ctx, incident.id, 'ai_summary', { text: 'late' }, minutesAgo(5));
    await feed!.runOnce();
    await waitFor(async () => (await rows(ctx)).every((r) => r.status !== 'pending'), {
      what: 'the backlog done',
      timeoutMs: 10_000,
    });
    expect((await rows(ctx)).map((r) => r.status)).toEqual(['sent', 'failed', 'failed', 'failed', 'sent']);
    const dropped = runtime!.logs.lines.filter((l) => l.msg === 'telegram: feed messages dropped');
    expect(dropped).toHaveLength(1);
    expect(dropped[0]).toMatchObject({ count: 3 });
    const [opened, late] = fake.messagesTo(CHAT).map((m) => m.text);
    expect(opened).toContain('(critical)');
    expect(opened).toContain('Old title');
    expect(opened).not.toMatch(/ UTC/);
    expect(late).toContain('late');
    expect(late).toMatch(/at \d{4}-\d\d-\d\d \d\d:\d\d UTC/);
  });
});

describe('stopping', () => {
  it('ends the pass before the next send, leaving the rest pending and nothing sending', async () => {
    const { ctx, fake } = await start();
    for (const title of ['One', 'Two', 'Three']) await createIncident(ctx, actor, { title, severity: 'low' });
    const pass = feed!.runOnce();
    await waitFor(() => fake.messagesTo(CHAT).length === 1, { what: 'the first message' });
    // The group's pace holds the next message for 3 s; stopping now must not wait for it.
    await feed!.stop();
    await pass;
    // No request after the first: the stop flag is read before the next row is marked and sent.
    expect(fake.requests.filter((r) => r.method === 'sendMessage')).toHaveLength(1);
    expect(fake.messagesTo(CHAT)).toHaveLength(1);
    expect((await rows(ctx)).map((r) => r.status)).toEqual(['sent', 'pending', 'pending']);
    feed = undefined;
  });

  it('ends a pass after its time budget, with the lock given back', async () => {
    const { ctx, fake, telegram } = await start();
    await feed!.stop();
    feed = undefined;
    for (const title of ['One', 'Two', 'Three']) await createIncident(ctx, actor, { title, severity: 'low' });
    const sent = await runTelegramFeed(ctx, { env: telegram, publicUrl: PUBLIC_URL, passBudgetMs: 2000 });
    expect(sent).toBe(1);
    expect(fake.messagesTo(CHAT)).toHaveLength(1);
    expect((await rows(ctx)).map((r) => r.status)).toEqual(['sent', 'pending', 'pending']);
  });
});
