import { createTestRuntime, type TestRuntime } from '@firebreak/runtime/testing';
import {
  createIncident,
  getTelegramSettings,
  systemOrigin,
  type TelegramConfig,
  updateIncident,
  updateTelegramSettings,
} from '@firebreak/services';
import { type FakeTelegram, startFakeTelegram, waitFor } from '@firebreak/testing';
import { afterEach, describe, expect, it } from 'vitest';
import { type RunningTelegramFeed, startTelegramFeed } from './start';

// The incident feed (docs/telegram.md#the-incident-feed) against the fake Bot API, from PostgreSQL
// alone: no queue is started, which is the point (a Redis restarted empty has nothing of the feed).
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

async function start(
  options: { env?: Partial<TelegramConfig>; intervalMs?: number; retryAfter?: number } = {},
) {
  fake = await startFakeTelegram({
    token: TOKEN,
    chats: [CHAT, '-1009999'],
    ...(options.retryAfter ? { retryAfterSeconds: options.retryAfter } : {}),
  });
  runtime = await createTestRuntime({ env: { PUBLIC_URL } });
  const telegram: TelegramConfig = {
    botToken: TOKEN,
    chatId: CHAT,
    ...options.env,
    apiUrl: fake.origin,
  };
  feed = startTelegramFeed(runtime.ctx, {
    intervalMs: options.intervalMs ?? 100,
    telegram,
    publicUrl: PUBLIC_URL,
  });
  // The feed tells what happens from its first pass with a token and a chat on.
  await feed.runOnce();
  return { ctx: runtime.ctx, fake, telegram };
}

async function summaryEntry(ctx: TestRuntime['ctx'], incidentId: string, text: string) {
  await ctx.sql`
    insert into timeline_entries (incident_id, type, actor_type, actor_name, data)
    values (${incidentId}, 'ai_summary', 'ai', 'model', ${ctx.sql.json({ text })})`;
}

describe('the Telegram incident feed', () => {
  it('tells opened, acknowledged, resolved and the AI summary, in order, paced, each once', async () => {
    const { ctx, fake } = await start();
    const incident = await createIncident(ctx, actor, {
      title: 'Checkout <down> & out',
      severity: 'critical',
    });
    await updateIncident(ctx, actor, { id: incident.id }, { status: 'acknowledged' });
    await updateIncident(ctx, actor, { id: incident.id }, { status: 'resolved' });
    await summaryEntry(ctx, incident.id, 'The cache <expired>; see "runbook".');
    await waitFor(() => fake.messagesTo(CHAT).length === 4, {
      what: 'four feed messages',
      timeoutMs: 20_000,
    });

    const texts = fake.messagesTo(CHAT).map((m) => m.text);
    expect(texts[0]).toContain(`Incident #${incident.number} opened (critical)`);
    expect(texts[1]).toContain(`Incident #${incident.number} acknowledged by Robin`);
    expect(texts[2]).toContain(`Incident #${incident.number} resolved by Robin`);
    expect(texts[3]).toContain('The cache <expired>; see "runbook".');
    // Sent as HTML with every value escaped: the fake parsed it back to the title as written.
    for (const text of texts) expect(text).toContain('Checkout <down> & out');
    expect(fake.messagesTo(CHAT).every((m) => m.parse_mode === 'HTML')).toBe(true);
    // Paced for a group (20 a minute): never refused, about 3 s apart.
    expect(fake.requests.filter((r) => r.status !== 200)).toEqual([]);
    const times = fake.messagesTo(CHAT).map((m) => m.time.getTime());
    for (let i = 1; i < times.length; i += 1) expect(times[i]! - times[i - 1]!).toBeGreaterThanOrEqual(2900);

    // More passes send nothing again.
    await feed!.runOnce();
    await feed!.runOnce();
    expect(fake.messagesTo(CHAT)).toHaveLength(4);
  }, 30_000);

  it('waits out a 429 for its retry_after, then sends', async () => {
    const { ctx, fake } = await start({ retryAfter: 2 });
    // Someone else's message to the chat a moment ago: the feed's first try is over the limit.
    await fetch(`${fake.origin}/bot${TOKEN}/sendMessage`, {
      method: 'POST',
      headers: { 'content-type': 'application/x-www-form-urlencoded' },
      body: new URLSearchParams({ chat_id: CHAT, text: 'hello' }).toString(),
    });
    await createIncident(ctx, actor, { title: 'Disk full', severity: 'high' });
    await waitFor(() => fake.messagesTo(CHAT).length === 2, { what: 'the feed message', timeoutMs: 10_000 });

    const sends = fake.requests.filter((r) => r.method === 'sendMessage').slice(1);
    expect(sends.map((r) => r.status)).toEqual([429, 200]);
    expect(sends[0]!.description).toBe('Too Many Requests: retry after 2');
    expect(sends[1]!.time.getTime() - sends[0]!.time.getTime()).toBeGreaterThanOrEqual(1900);
    const paused = runtime!.logs.lines.filter((l) => l.msg === 'telegram: rate limited, feed paused');
    expect(paused).toHaveLength(1);
    expect(paused[0]).toMatchObject({ retry_after_s: 2 });
  });

  it('logs a failure once per change of state, shows it in Settings, and never logs the token', async () => {
    const { ctx, fake, telegram } = await start({
      env: { botToken: undefined, chatId: undefined },
      intervalMs: 3_600_000,
    });
    const wrong = '123456:AAWRONG-wrong_token_for_tests_987654';
    let offsetMs = 0;
    ctx.now = () => new Date(Date.now() + offsetMs);
    const pass = async () => {
      offsetMs += 6 * 60_000; // past the longest backoff
      await feed!.runOnce();
    };
    await updateTelegramSettings(
      ctx,
      telegram,
      { bot_token: wrong, feed_chat_id: CHAT },
      systemOrigin,
      PUBLIC_URL,
    );
    await feed!.runOnce();
    await createIncident(ctx, actor, { title: 'Queue stuck', severity: 'low' });
    for (let i = 0; i < 3; i += 1) await pass();
    expect(fake.requests.map((r) => r.status)).toEqual([401, 401, 401]);
    expect(await getTelegramSettings(ctx, telegram)).toMatchObject({
      bot_token_set: true,
      bot_token_source: 'settings',
      feed: {
        enabled: true,
        pending: 1,
        failing_reason: 'unauthorized',
        last_error: 'telegram 401: Unauthorized',
      },
    });

    // The token is right now, the chat is not: a change of reason, logged once more.
    await updateTelegramSettings(
      ctx,
      telegram,
      { bot_token: TOKEN, feed_chat_id: '-1005555' },
      systemOrigin,
      PUBLIC_URL,
    );
    for (let i = 0; i < 3; i += 1) await pass();
    // Both fixed: the message goes, and the recovery is logged once.
    await updateTelegramSettings(ctx, telegram, { feed_chat_id: CHAT }, systemOrigin, PUBLIC_URL);
    await pass();
    await pass();

    const messages = runtime!.logs.messages().filter((m) => m.startsWith('telegram: feed'));
    expect(messages).toEqual([
      'telegram: feed failed: unauthorized',
      'telegram: feed failed: chat_not_found',
      'telegram: feed sending again',
    ]);
    expect(fake.messagesTo(CHAT)).toHaveLength(1);
    expect((await getTelegramSettings(ctx, telegram)).feed).toMatchObject({
      pending: 0,
      failing_reason: null,
    });
    const everything = JSON.stringify(runtime!.logs.lines);
    expect(everything).not.toContain('AAWRONG');
    expect(everything).not.toContain('AAFAKE');
  });

  it('counts Telegram unreachable as a failure and sends once it is back', async () => {
    const { ctx, fake } = await start({ intervalMs: 3_600_000 });
    let offsetMs = 0;
    ctx.now = () => new Date(Date.now() + offsetMs);
    fake.unreachable = true;
    await createIncident(ctx, actor, { title: 'DNS', severity: 'medium' });
    await feed!.runOnce();
    offsetMs += 60_000;
    await feed!.runOnce();
    fake.unreachable = false;
    offsetMs += 60_000;
    await feed!.runOnce();
    expect(fake.messagesTo(CHAT)).toHaveLength(1);
    const lines = runtime!.logs.lines.filter((l) => String(l.msg).startsWith('telegram: feed'));
    expect(lines.map((l) => l.msg)).toEqual([
      'telegram: feed failed: network',
      'telegram: feed sending again',
    ]);
    expect(JSON.stringify(lines)).not.toContain(TOKEN);
  });
});
