// Pages when every connection of the database pool is taken: each chat job holds one pooled connection
// for its incident's chat lock, the worker runs up to the pool's size less one at once (concurrency.ts),
// and the rest of the process may hold the last one (here the test does). A page that needed a second
// connection from the same pool, to sign its acknowledge link, would wait for ever, and so would every
// page after it. Real PostgreSQL and Redis, the fake chat API (packages/testing).
import { setTimeout as sleep } from 'node:timers/promises';
import { createTestRuntime, type TestRuntime } from '@firebreak/runtime/testing';
import { createIncident } from '@firebreak/services';
import { type FakeChatApi, startFakeChatApi, waitFor } from '@firebreak/testing';
import { type RunningWorker, startWorker } from '@firebreak/worker';
import { afterEach, describe, expect, it } from 'vitest';
import { type RunningChatWorker, startChatWorker } from '../apps/chat/src/outbound/worker';
import { actor, chatUser, defaultPolicyPaging, PUBLIC_URL } from './support/chat-outbound';

const POOL = 3;
const CONCURRENCY = 8;
const INCIDENTS = 12;

interface Setup {
  fake: FakeChatApi;
  runtime: TestRuntime;
  worker: RunningWorker;
  chatWorker?: RunningChatWorker;
}

let setup: Setup | undefined;

afterEach(async () => {
  if (!setup) return;
  const { fake, runtime, worker, chatWorker } = setup;
  setup = undefined;
  // A deadlocked chat worker never finishes its jobs, so stopping it would wait for ever: after a
  // bounded wait, the pool's connections are ended, which fails the stuck queries and frees the jobs.
  const stopped = chatWorker?.stop();
  const inTime = await Promise.race([stopped?.then(() => true), sleep(5000).then(() => false)]);
  if (!inTime) await runtime.sql.end({ timeout: 0 });
  await stopped;
  await worker.stop();
  await runtime.cleanup();
  await fake.close();
});

describe('pages with every pooled connection taken', () => {
  it('sends every page: no job waits for a second connection while holding its session', async () => {
    const fake = await startFakeChatApi();
    const runtime = await createTestRuntime({
      env: {
        CHAT_BOT_TOKEN: fake.botToken,
        CHAT_API_URL: fake.url,
        PUBLIC_URL,
        DB_MAX_OPEN_CONNS: String(POOL),
      },
    });
    const worker = await startWorker(runtime.ctx, {
      redis: runtime.redisConfig,
      ai: runtime.config.ai,
      intervalMs: 200,
    });
    setup = { fake, runtime, worker };
    const alice = await chatUser(runtime, 'Alice', 'U0ALICE01');
    await defaultPolicyPaging(runtime, [alice.id]);
    await Promise.all(
      Array.from({ length: INCIDENTS }, (_, i) =>
        createIncident(runtime.ctx, actor, { title: `Paged ${i}`, severity: 'critical' }),
      ),
    );
    // Every incident's jobs (its channel, its page) are queued before the chat worker starts, so the
    // pages are due at once and the worker takes as many as its concurrency allows.
    await waitFor(async () => (await worker.queues.depths()).chat.waiting === 2 * INCIDENTS, {
      what: 'channels and pages queued',
    });
    // The rest of the process holds the connection the chat worker leaves over, until the pages are out.
    const busy = await runtime.sql.reserve();
    setup.chatWorker = startChatWorker(runtime.ctx, {
      redis: runtime.redisConfig,
      chat: runtime.config.chat,
      publicUrl: PUBLIC_URL,
      concurrency: CONCURRENCY,
    });

    // Only the fake is asked while waiting: a deadlocked pool would hang a database query here too.
    await waitFor(() => fake.dms('U0ALICE01').length === INCIDENTS, {
      what: 'every page (a deadlocked pool sends none)',
      timeoutMs: 20_000,
    });
    busy.release();
    const dms = fake.dms('U0ALICE01');
    expect(dms).toHaveLength(INCIDENTS);
    for (const dm of dms) expect(dm.text).toMatch(/<[^|>]+\/api\/v1\/page\/[^|>]+\|Acknowledge>/);
    // Each job records its message after the chat service answered it: the last may still be on its way.
    const recorded = async () => {
      const [{ n } = { n: -1 }] = await runtime.sql<{ n: number }[]>`
        select count(*)::int as n from chat_direct_messages where message_ts is not null`;
      return n;
    };
    await waitFor(async () => (await recorded()) === INCIDENTS, { what: 'every page recorded' });
    expect(await recorded()).toBe(INCIDENTS);
  }, 60_000);
});
