import { type FakeChatApi, startFakeChatApi } from '@firebreak/testing';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createChatAuthCheck } from './auth-check';

let fake: FakeChatApi;
beforeAll(async () => {
  fake = await startFakeChatApi();
});
afterAll(() => fake.close());

const chat = () => ({ botToken: fake.botToken, signingSecret: undefined, apiUrl: fake.url });

describe('createChatAuthCheck', () => {
  it('keeps an answer for a minute, then asks again', async () => {
    let now = 1_000_000;
    const check = createChatAuthCheck(chat(), { now: () => now });
    const before = fake.callsTo('auth.test').length;
    expect(await check.current()).toMatchObject({ ok: true, team: 'Acme' });
    now += 59_000;
    await check.current();
    expect(fake.callsTo('auth.test').length).toBe(before + 1);
    now += 2_000;
    await check.current();
    expect(fake.callsTo('auth.test').length).toBe(before + 2);
  });

  it('asks once for concurrent views', async () => {
    const check = createChatAuthCheck(chat());
    const before = fake.callsTo('auth.test').length;
    await Promise.all([check.current(), check.current(), check.current()]);
    expect(fake.callsTo('auth.test').length).toBe(before + 1);
  });

  it('lets the view wait only so long for a slow chat service, and keeps the late answer', async () => {
    const check = createChatAuthCheck(chat(), { viewWaitMs: 50 });
    fake.setLatency(300);
    try {
      expect(await check.current()).toEqual({ ok: false, error: 'timeout' });
      expect(await check.runNow()).toMatchObject({ ok: true });
    } finally {
      fake.setLatency(0);
    }
    const before = fake.callsTo('auth.test').length;
    expect(await check.current()).toMatchObject({ ok: true });
    expect(fake.callsTo('auth.test').length).toBe(before);
  });

  it('names how an unreachable chat service failed', async () => {
    const check = createChatAuthCheck({ ...chat(), apiUrl: 'http://127.0.0.1:9/api/' });
    expect(await check.runNow()).toEqual({ ok: false, error: 'unreachable' });
  });

  it('answers null when chat is off', async () => {
    const check = createChatAuthCheck({ botToken: undefined, signingSecret: undefined, apiUrl: fake.url });
    expect(await check.current()).toBeNull();
    expect(await check.runNow()).toBeNull();
  });
});
