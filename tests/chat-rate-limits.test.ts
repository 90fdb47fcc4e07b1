// Chat rate limits honoured across jobs and processes (docs/integrations/slack.md#rate-limits): a 429
// pauses its method for every chat worker until Retry-After, against the fake chat API, which holds each
// method to Slack's tiers (a "minute" shrunk to one second here), on real PostgreSQL and Redis.
import { addNote, createIncident } from '@firebreak/services';
import { waitFor } from '@firebreak/testing';
import { afterEach, describe, expect, it } from 'vitest';
import { startChatWorker } from '../apps/chat/src/outbound/worker';
import {
  actor,
  type ChatHarness,
  chatUser,
  defaultPolicyPaging,
  PUBLIC_URL,
  startChatHarness,
  texts,
} from './support/chat-outbound';

const cleanups: Array<() => Promise<unknown>> = [];

afterEach(async () => {
  for (const cleanup of cleanups.splice(0).reverse()) await cleanup();
});

async function harness(options: Parameters<typeof startChatHarness>[0]): Promise<ChatHarness> {
  const h = await startChatHarness(options);
  cleanups.push(() => h.stop());
  return h;
}

/** Another chat worker on the same database and Redis: a second process, as far as Redis can tell. */
function startWorkerProcess(h: ChatHarness, concurrency: number): void {
  const worker = startChatWorker(h.runtime.ctx, {
    redis: h.runtime.redisConfig,
    chat: h.runtime.config.chat,
    publicUrl: PUBLIC_URL,
    concurrency,
  });
  cleanups.push(() => worker.stop());
}

const linesWith = (h: ChatHarness, msg: string) => h.runtime.logs.lines.filter((l) => l.msg === msg);
const note = (h: ChatHarness, incidentId: string, text: string) =>
  addNote(h.runtime.ctx, actor, { id: incidentId }, { text });

describe('an alert storm against a tier 2 method', () => {
  it('opens every channel once, with few 429s, no chat_failed and no failed job', async () => {
    const INCIDENTS = 40;
    const WORKERS = 2;
    const CONCURRENCY = 4;
    // 20 conversations.create a "minute" of two seconds: 40 incidents need two minutes.
    const h = await harness({ startChat: false, fake: { tierWindowMs: 2000 } });
    const incidents = await Promise.all(
      Array.from({ length: INCIDENTS }, (_, i) =>
        createIncident(h.runtime.ctx, actor, { title: `Storm ${i}`, severity: 'high' }),
      ),
    );
    // Every channel is asked for at once: the jobs are all queued before the workers start.
    await waitFor(async () => (await h.worker.queues.depths()).chat.waiting === INCIDENTS, {
      what: 'the storm queued',
    });
    for (let i = 0; i < WORKERS; i += 1) startWorkerProcess(h, CONCURRENCY);
    const channelIds = await Promise.all(incidents.map((incident) => h.channelOf(incident.id)));
    await h.idle();

    expect(new Set(channelIds).size).toBe(INCIDENTS);
    const created = h.fake.callsTo('conversations.create').filter((c) => c.status === 200);
    expect(created).toHaveLength(INCIDENTS);
    expect(h.fake.channels()).toHaveLength(INCIDENTS);
    for (const incident of incidents) expect(await h.failures(incident.id)).toEqual([]);
    expect((await h.worker.queues.depths()).chat.failed).toBe(0);

    // Every job but those already calling a method when its first 429 came waited for the pause
    // instead of asking: without it, each job over a tier 2 allowance (create, topic, purpose) gets a
    // 429 of its own.
    const limited = h.fake.rateLimitedCounts();
    expect(limited['conversations.create']).toBeGreaterThan(0);
    for (const [method, count] of Object.entries(limited)) {
      expect(count, method).toBeLessThanOrEqual(WORKERS * CONCURRENCY);
    }
    expect(h.fake.callsTo('conversations.create')).toHaveLength(INCIDENTS + limited['conversations.create']!);
    // One line when the pause starts and one when calls succeed again, not one per job, across both workers.
    expect(linesWith(h, 'slack: rate limited, calls paused: conversations.create')).toHaveLength(1);
    expect(linesWith(h, 'slack: rate limit over, calls resumed: conversations.create')).toHaveLength(1);
  }, 30_000);
});

describe('a paused method', () => {
  it('is not called until the pause ends, and does not hold up other methods', async () => {
    const h = await harness({ startChat: false });
    startWorkerProcess(h, 8);
    const first = await h.open('Before the limit');
    const firstChannel = await h.channelOf(first.id);

    h.fake.rateLimit({ method: 'conversations.create', retryAfter: 3 });
    const limited = await h.open('Hit the limit');
    const the429 = await waitFor(() => h.fake.callsTo('conversations.create').find((c) => c.status === 429), {
      what: 'the 429',
    });
    const pauseEnds = the429.time.getTime() + 3000;
    // Opened during the pause: its job must wait without calling (the fake would have said yes).
    const during = await h.open('During the pause');
    await note(h, first.id, 'posts go on');
    await waitFor(() => texts(h.fake, firstChannel).includes('📝 *tester*: posts go on'), {
      what: 'the note',
    });
    expect(Date.now()).toBeLessThan(pauseEnds);
    expect(h.fake.callsTo('conversations.create')).toHaveLength(2);

    await Promise.all([h.channelOf(limited.id), h.channelOf(during.id)]);
    const after = h.fake.callsTo('conversations.create').slice(2);
    expect(after.map((c) => c.status)).toEqual([200, 200]);
    // BullMQ's clock and the fake's are the same machine's; allow the HTTP round trip's few ms.
    for (const call of after) expect(call.time.getTime()).toBeGreaterThanOrEqual(pauseEnds - 50);
    expect(h.fake.rateLimitedCount()).toBe(1);
    expect(await h.failures(limited.id)).toEqual([]);
    expect(await h.failures(during.id)).toEqual([]);
  }, 20_000);

  it('pauses chat.postMessage for the limited channel only', async () => {
    const h = await harness({});
    const [busy, quiet] = await Promise.all([h.open('Busy channel'), h.open('Quiet channel')]);
    const [busyChannel, quietChannel] = await Promise.all([h.channelOf(busy.id), h.channelOf(quiet.id)]);
    await h.idle();

    h.fake.rateLimit({ method: 'chat.postMessage', retryAfter: 3 });
    await note(h, busy.id, 'limited');
    const the429 = await waitFor(() => h.fake.callsTo('chat.postMessage').find((c) => c.status === 429), {
      what: 'the 429',
    });
    await note(h, busy.id, 'queued behind the pause');
    await note(h, quiet.id, 'not held up');
    await waitFor(() => texts(h.fake, quietChannel).includes('📝 *tester*: not held up'), {
      what: 'quiet post',
    });
    expect(Date.now()).toBeLessThan(the429.time.getTime() + 3000);
    expect(texts(h.fake, busyChannel)).toHaveLength(1);

    await waitFor(() => texts(h.fake, busyChannel).length === 3, { what: 'busy posts', timeoutMs: 10_000 });
    expect(texts(h.fake, busyChannel).slice(1)).toEqual([
      '📝 *tester*: limited',
      '📝 *tester*: queued behind the pause',
    ]);
    expect(h.fake.rateLimitedCount()).toBe(1);
    expect(linesWith(h, 'slack: rate limited, calls paused: chat.postMessage')).toMatchObject([
      { channel_id: busyChannel, retry_after_s: 3 },
    ]);
    await waitFor(
      () => linesWith(h, 'slack: rate limit over, calls resumed: chat.postMessage').length === 1,
      {
        what: 'end of the pause logged',
      },
    );
  }, 20_000);
});

describe('pages in a storm', () => {
  it('pages one person for every incident, paced in their direct-message channel, opening it once', async () => {
    const INCIDENTS = 10;
    const CONCURRENCY = 3;
    // The default Slack minute: a direct-message channel takes a burst of 5, then one a second.
    // Three jobs at once: each page holds a session and signs its link on another connection, and
    // the test database allows five.
    const h = await harness({ startChat: false });
    startWorkerProcess(h, CONCURRENCY);
    const alice = await chatUser(h.runtime, 'Alice', 'U0ALICE01');
    await defaultPolicyPaging(h.runtime, [alice.id]);
    const incidents = await Promise.all(
      Array.from({ length: INCIDENTS }, (_, i) =>
        createIncident(h.runtime.ctx, actor, { title: `Paged ${i}`, severity: 'high' }),
      ),
    );
    await waitFor(() => h.fake.dms('U0ALICE01').length === INCIDENTS, {
      what: 'every page',
      timeoutMs: 15_000,
    });
    await h.idle();

    expect(h.fake.dms('U0ALICE01')).toHaveLength(INCIDENTS);
    expect(h.fake.rateLimitedCount('chat.postMessage')).toBeGreaterThan(0);
    // The channel is asked for by the first pages only (those running at once), not again by each
    // page the limit re-scheduled.
    expect(h.fake.callsTo('conversations.open').length).toBeLessThanOrEqual(CONCURRENCY);
    for (const incident of incidents) expect(await h.failures(incident.id)).toEqual([]);
    expect((await h.worker.queues.depths()).chat.failed).toBe(0);
  }, 30_000);
});
