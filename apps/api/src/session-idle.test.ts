// The idle timeout of a console left open (docs/api.md#authentication): the UI's polling, marked with
// `X-Firebreak-Background: 1`, does not count as use of the session; anything else does.
import { createTestUser, startTestApp, type TestApp } from '@firebreak/runtime/testing';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createApp } from './app';

let t: TestApp<ReturnType<typeof createApp>, never>;
beforeAll(async () => {
  t = await startTestApp(createApp, { env: { SESSION_IDLE_TIMEOUT_MINUTES: '30' } });
});
afterAll(() => t.runtime.cleanup());

const minutes = (n: number) => n * 60_000;

async function meAt(token: string, at: Date, background: boolean): Promise<number> {
  t.runtime.ctx.now = () => at;
  const res = await t.api('GET', '/api/v1/auth/me', {
    token,
    headers: background ? { 'x-firebreak-background': '1' } : {},
  });
  return res.status;
}

describe('session idle timeout', () => {
  it('is not pushed on by background polls, and is by a person’s requests', async () => {
    const start = new Date();
    const polled = await createTestUser(t.runtime, 'viewer');
    const used = await createTestUser(t.runtime, 'viewer');
    const at = (n: number) => new Date(start.getTime() + minutes(n));

    // Twenty minutes in, both sessions are live; one is only polled, the other used.
    expect(await meAt(polled.token, at(20), true)).toBe(200);
    expect(await meAt(used.token, at(20), false)).toBe(200);

    // Forty minutes in: the polled one has been idle since its login, the used one since minute 20.
    expect(await meAt(polled.token, at(40), true)).toBe(401);
    expect(await meAt(used.token, at(40), true)).toBe(200);
  });
});
