import { createTestRuntime, type TestRuntime } from '@firebreak/runtime/testing';
import {
  createIncident,
  sendVerificationCode,
  systemOrigin,
  updateTelegramSettings,
  verifyContactMethod,
} from '@firebreak/services';
import { type FakeTelegram, startFakeTelegram, waitFor } from '@firebreak/testing';
import { afterEach, describe, expect, it } from 'vitest';
import { type RunningWorker, startWorker } from '../worker';
import { deliverPage, type PageDeps } from './deliver-page';
import { realSenders } from './dispatch';
import { deliveries, pagingPolicy } from './test-support';

// A Telegram chat as a personal contact method (docs/telegram.md#pages), end to end: the code by the
// bot, the page by the notify queue, Telegram's refusals recorded on the page and the method.
const TOKEN = '424242:AAPAGE-fake_token_for_paging_tests_01';
const PUBLIC_URL = 'https://firebreak.example.test';
const actor = { type: 'user' as const, name: 'tester' };
let runtime: TestRuntime | undefined;
let fake: FakeTelegram | undefined;
let worker: RunningWorker | undefined;

afterEach(async () => {
  await worker?.stop();
  await runtime?.cleanup();
  await fake?.close();
  runtime = fake = worker = undefined;
});

async function start(chats: string[]) {
  fake = await startFakeTelegram({ token: TOKEN, chats });
  runtime = await createTestRuntime({
    env: { PUBLIC_URL, TELEGRAM_BOT_TOKEN: TOKEN, TELEGRAM_API_URL: fake.origin },
  });
  worker = await startWorker(runtime.ctx, {
    redis: runtime.redisConfig,
    ai: runtime.config.ai,
    intervalMs: 100,
    paging: runtime.config.paging,
    telegram: runtime.config.telegram,
    publicUrl: PUBLIC_URL,
  });
  return { ctx: runtime.ctx, fake };
}

/** A member whose only rule pages their Telegram chat at once. */
async function telegramPerson(ctx: TestRuntime['ctx'], chatId: string, verified = true) {
  const [user] = await ctx.sql<{ id: string; name: string }[]>`
    insert into users (email, name, role) values (${`tg-${chatId}@example.test`}, 'Tess', 'member')
    returning id, name`;
  const [contact] = await ctx.sql<{ id: string }[]>`
    insert into contact_methods (user_id, type, address, verified_at)
    values (${user!.id}, 'telegram', ${chatId}, ${verified ? new Date() : null}) returning id`;
  await ctx.sql`
    insert into notification_rules (user_id, position, method, delay_minutes, contact_method_id)
    values (${user!.id}, 0, 'telegram', 0, ${contact!.id})`;
  return { owner: { id: user!.id, name: user!.name, slack_user_id: null }, contactId: contact!.id };
}

const disabledReason = async (ctx: TestRuntime['ctx'], id: string) =>
  (
    await ctx.sql<{ disabled_reason: string | null }[]>`
    select disabled_reason from contact_methods where id = ${id}`
  )[0]!.disabled_reason;

describe('Telegram as a contact method', () => {
  it('is verified by a 6-digit code the bot sends', async () => {
    const { ctx, fake } = await start(['5550001']);
    const tess = await telegramPerson(ctx, '5550001', false);
    expect(await sendVerificationCode(ctx, tess.owner, tess.contactId, new Set(['telegram']))).toEqual({
      status: 'queued',
    });
    const [message] = await waitFor(
      () => fake.messagesTo('5550001').length === 1 && fake.messagesTo('5550001'),
      {
        what: 'the code',
      },
    );
    const code = /\b(\d{6})\b/.exec(message!.text)?.[1];
    expect(message!.text).toContain('Your Firebreak verification code is');
    const verified = await verifyContactMethod(ctx, tess.owner, tess.contactId, code!, systemOrigin);
    expect(verified).toMatchObject({ type: 'telegram', address: '5550001', verified: true });
  });

  it('delivers a page with the incident, escaped, and its links', async () => {
    const { ctx, fake } = await start(['5550002']);
    const tess = await telegramPerson(ctx, '5550002');
    await pagingPolicy(ctx, [tess.owner.id]);
    const incident = await createIncident(ctx, actor, { title: 'API <5xx> & timeouts', severity: 'high' });
    await waitFor(async () => (await deliveries(ctx, incident.id)).includes('0:telegram:sent'), {
      what: 'the page sent',
    });
    const [page] = fake.messagesTo('5550002');
    expect(page!.parse_mode).toBe('HTML');
    expect(page!.text).toContain(`Incident #${incident.number} (high)`);
    expect(page!.text).toContain('API <5xx> & timeouts');
    expect(page!.text).toContain('Tess, you are paged.');
    const html = fake.requests.find((r) => r.method === 'sendMessage')!.params.text as string;
    expect(html).toContain(`href="${PUBLIC_URL}/incidents/${incident.number}"`);
    expect(html).toMatch(new RegExp(`href="${PUBLIC_URL}/api/v1/page/[A-Za-z0-9_-]{70}"`));
  });

  it('disables the method when the person blocked the bot, or the chat is unknown', async () => {
    const { ctx, fake } = await start(['5550003']);
    fake.blocked.add('5550003');
    const blocked = await telegramPerson(ctx, '5550003');
    const unknown = await telegramPerson(ctx, '5550404');
    await pagingPolicy(ctx, [blocked.owner.id, unknown.owner.id]);
    const incident = await createIncident(ctx, actor, { title: 'Payments', severity: 'critical' });
    await waitFor(
      async () => (await deliveries(ctx, incident.id)).filter((d) => d === '0:telegram:failed').length === 2,
      { what: 'both pages failed' },
    );
    expect(await disabledReason(ctx, blocked.contactId)).toBe(
      'telegram 403: Forbidden: bot was blocked by the user',
    );
    expect(await disabledReason(ctx, unknown.contactId)).toBe('telegram 400: Bad Request: chat not found');
    expect(fake.messages).toHaveLength(0);
    expect(JSON.stringify(runtime!.logs.lines)).not.toContain(TOKEN);
  });
});

describe('the bot for a page', () => {
  /** A due Telegram page for a verified person, written as the escalation would. */
  async function duePage(ctx: TestRuntime['ctx'], chatId: string) {
    const tess = await telegramPerson(ctx, chatId);
    const incident = await createIncident(ctx, actor, { title: 'Settings away', severity: 'high' });
    const [row] = await ctx.sql<{ id: string }[]>`
      insert into page_deliveries
        (incident_id, round, tier, user_id, rule_position, method, contact_method_id, due_at, next_attempt_at)
      values (${incident.id}, 0, 0, ${tess.owner.id}, 0, 'telegram', ${tess.contactId}, now(), now())
      returning id`;
    return row!.id;
  }
  const pageRow = async (ctx: TestRuntime['ctx'], id: string) =>
    (
      await ctx.sql<{ status: string; last_error: string | null }[]>`
      select status, last_error from page_deliveries where id = ${id}`
    )[0]!;

  it('retries a page when Settings cannot be read, rather than failing it as not configured', async () => {
    fake = await startFakeTelegram({ token: TOKEN, chats: ['5550005'] });
    runtime = await createTestRuntime({ env: { PUBLIC_URL, TELEGRAM_API_URL: fake.origin } });
    const { ctx } = runtime;
    await updateTelegramSettings(
      ctx,
      runtime.config.telegram,
      { bot_token: TOKEN },
      systemOrigin,
      PUBLIC_URL,
    );
    const id = await duePage(ctx, '5550005');
    const deps: PageDeps = {
      ctx,
      paging: runtime.config.paging,
      publicUrl: PUBLIC_URL,
      senders: realSenders,
      telegram: runtime.config.telegram,
    };
    // The settings table out of reach for a moment (as in a failover).
    await ctx.sql`alter table settings rename to settings_away`;
    try {
      await deliverPage(deps, id);
    } finally {
      await ctx.sql`alter table settings_away rename to settings`;
    }
    const row = await pageRow(ctx, id);
    expect(row.status).toBe('pending');
    expect(row.last_error).toMatch(/^sender failed: /);
    expect(fake.messages).toHaveLength(0);
  });

  it('reads no Settings when the environment gives the token', async () => {
    fake = await startFakeTelegram({ token: TOKEN, chats: ['5550006'] });
    runtime = await createTestRuntime({
      env: { PUBLIC_URL, TELEGRAM_BOT_TOKEN: TOKEN, TELEGRAM_API_URL: fake.origin },
    });
    const { ctx } = runtime;
    const id = await duePage(ctx, '5550006');
    await ctx.sql`alter table settings rename to settings_away`;
    try {
      await deliverPage(
        {
          ctx,
          paging: runtime.config.paging,
          publicUrl: PUBLIC_URL,
          senders: realSenders,
          telegram: runtime.config.telegram,
        },
        id,
      );
    } finally {
      await ctx.sql`alter table settings_away rename to settings`;
    }
    expect((await pageRow(ctx, id)).status).toBe('sent');
    expect(fake.messagesTo('5550006')).toHaveLength(1);
  });

  it('disables a method whose group became a supergroup, naming the new id', async () => {
    const { ctx, fake } = await start(['-100300']);
    fake.migrated.set('-4711', '-100300');
    const tess = await telegramPerson(ctx, '-4711');
    await pagingPolicy(ctx, [tess.owner.id]);
    const incident = await createIncident(ctx, actor, { title: 'Upgraded', severity: 'high' });
    await waitFor(async () => (await deliveries(ctx, incident.id)).includes('0:telegram:failed'), {
      what: 'the page failed',
    });
    expect(await disabledReason(ctx, tess.contactId)).toBe(
      "telegram 400: Bad Request: group chat was upgraded to a supergroup chat (the chat's new id is -100300)",
    );
  });
});
