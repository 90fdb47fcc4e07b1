import { afterEach, describe, expect, it } from 'vitest';
import { type FakeTelegram, parseHtml, startFakeTelegram } from './telegram';

const TOKEN = '111:AAFAKE-token_for_the_fake_itself_000';
let fake: FakeTelegram | undefined;

afterEach(async () => {
  await fake?.close();
  fake = undefined;
});

async function call(
  method: string,
  body: Record<string, unknown>,
  options: { token?: string; form?: boolean } = {},
) {
  const response = await fetch(`${fake!.origin}/bot${options.token ?? TOKEN}/${method}`, {
    method: 'POST',
    headers: { 'content-type': options.form ? 'application/x-www-form-urlencoded' : 'application/json' },
    body: options.form
      ? new URLSearchParams(Object.entries(body).map(([k, v]): [string, string] => [k, String(v)])).toString()
      : JSON.stringify(body),
  });
  return { status: response.status, body: (await response.json()) as Record<string, unknown> };
}

describe('the fake Telegram Bot API', () => {
  it('answers getMe and sendMessage (JSON or form) with {ok: true, result}', async () => {
    fake = await startFakeTelegram({ token: TOKEN, chats: ['42'], username: 'fb_bot' });
    expect((await call('getMe', {})).body).toMatchObject({
      ok: true,
      result: { is_bot: true, username: 'fb_bot' },
    });
    const sent = await call('sendMessage', { chat_id: 42, text: '<b>hi</b> &amp; bye', parse_mode: 'HTML' });
    expect(sent.body).toMatchObject({
      ok: true,
      result: { message_id: 1, chat: { id: 42 }, text: 'hi & bye' },
    });
    await new Promise((r) => setTimeout(r, 1100));
    const form = await call('sendMessage', { chat_id: '42', text: 'plain' }, { form: true });
    expect(form.body).toMatchObject({ ok: true, result: { text: 'plain' } });
    expect(fake.messagesTo('42').map((m) => m.text)).toEqual(['hi & bye', 'plain']);
  });

  it('refuses as the Bot API does', async () => {
    fake = await startFakeTelegram({ token: TOKEN, chats: ['42', '43'], retryAfterSeconds: 7 });
    fake.blocked.add('43');
    const refusal = (code: number, description: string) => ({ ok: false, error_code: code, description });
    expect(await call('sendMessage', { chat_id: 42, text: 'x' }, { token: '111:wrong' })).toEqual({
      status: 401,
      body: refusal(401, 'Unauthorized'),
    });
    expect((await call('sendMessage', { chat_id: 99, text: 'x' })).body).toEqual(
      refusal(400, 'Bad Request: chat not found'),
    );
    expect((await call('sendMessage', { chat_id: 42, text: '' })).body).toEqual(
      refusal(400, 'Bad Request: message text is empty'),
    );
    expect((await call('sendMessage', { chat_id: 42, text: 'x'.repeat(4097) })).body).toEqual(
      refusal(400, 'Bad Request: message is too long'),
    );
    const html = await call('sendMessage', { chat_id: 42, text: 'a <div>b</div>', parse_mode: 'HTML' });
    expect(html.status).toBe(400);
    expect(String(html.body.description)).toMatch(
      /^Bad Request: can't parse entities: Unsupported start tag "div"/,
    );
    expect((await call('sendMessage', { chat_id: 43, text: 'x' })).body).toEqual(
      refusal(403, 'Forbidden: bot was blocked by the user'),
    );
    expect((await call('sendMessage', { chat_id: 42, text: 'one' })).status).toBe(200);
    expect(await call('sendMessage', { chat_id: 42, text: 'two' })).toEqual({
      status: 429,
      body: { ...refusal(429, 'Too Many Requests: retry after 7'), parameters: { retry_after: 7 } },
    });
    expect(fake.requests.map((r) => r.status)).toEqual([401, 400, 400, 400, 400, 403, 200, 429]);
    expect(fake.requests[0]!.token_ok).toBe(false);
  });

  it('refuses a chat upgraded to a supergroup with its new id, and a chat where the bot may not post', async () => {
    fake = await startFakeTelegram({ token: TOKEN, chats: ['-100200', '-100300'] });
    fake.migrated.set('-4711', '-100200');
    fake.readOnly.add('-100300');
    expect(await call('sendMessage', { chat_id: -4711, text: 'x' })).toEqual({
      status: 400,
      body: {
        ok: false,
        error_code: 400,
        description: 'Bad Request: group chat was upgraded to a supergroup chat',
        parameters: { migrate_to_chat_id: -100200 },
      },
    });
    expect((await call('sendMessage', { chat_id: -100300, text: 'x' })).body).toEqual({
      ok: false,
      error_code: 400,
      description: 'Bad Request: not enough rights to send text messages to the chat',
    });
    expect((await call('sendMessage', { chat_id: -100200, text: 'x' })).status).toBe(200);
  });

  it('refuses more than 30 messages a second from the bot, across chats', async () => {
    const chats = Array.from({ length: 31 }, (_, i) => String(1000 + i));
    fake = await startFakeTelegram({ token: TOKEN, chats });
    const answers = [];
    for (const chat of chats) answers.push(await call('sendMessage', { chat_id: chat, text: 'x' }));
    expect(answers.slice(0, 30).every((a) => a.status === 200)).toBe(true);
    expect(answers[30]).toMatchObject({
      status: 429,
      body: { ok: false, error_code: 429, parameters: { retry_after: 1 } },
    });
  });

  it('parses Telegram HTML: known tags nested and closed, entities only', () => {
    expect(parseHtml('<b>x</b> <a href="https://e.test/?a=1&amp;b=2">y</a> &lt;&#65;&gt;')).toEqual({
      text: 'x y <A>',
    });
    expect(parseHtml('<b>x')).toEqual({ error: 'Can\'t find end tag corresponding to start tag "b"' });
    expect(parseHtml('a & b')).toMatchObject({ error: expect.stringContaining("Character '&' is reserved") });
    expect(parseHtml('1 < 2')).toMatchObject({ error: expect.stringContaining('Unsupported start tag') });
  });
});
