// Chat work a Redis restarted empty lost is recovered from PostgreSQL (docs/integrations/slack.md#recovery):
// every channel, card, post, page and rename arrives, each once.
import { chat } from '@firebreak/db';
import { createTestRuntime, type TestRuntime } from '@firebreak/runtime/testing';
import { addNote, createIncident, updateIncident } from '@firebreak/services';
import {
  deleteRedisKeys,
  type FakeChatApi,
  PrivateRedis,
  startFakeChatApi,
  waitFor,
} from '@firebreak/testing';
import { type RunningWorker, startWorker } from '@firebreak/worker';
import { afterEach, describe, expect, it } from 'vitest';
import { type RunningChatWorker, startChatWorker } from '../apps/chat/src/outbound/worker';
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

// Only the Redis coming back, or a pass the test asks for, may recover anything: never the timer.
const AN_HOUR = 60 * 60 * 1000;

function startRecoveringChat(runtime: TestRuntime): RunningChatWorker {
  const chat = startChatWorker(runtime.ctx, {
    redis: runtime.redisConfig,
    chat: runtime.config.chat,
    publicUrl: PUBLIC_URL,
    recovery: { graceMs: 0, intervalMs: AN_HOUR },
  });
  cleanups.push(() => chat.stop());
  return chat;
}

async function harness(): Promise<ChatHarness> {
  const h = await startChatHarness({ startChat: false });
  cleanups.push(() => h.stop());
  return h;
}

async function countOf(runtime: TestRuntime, query: 'unsent outbox' | 'escalation entries') {
  const [row] =
    query === 'unsent outbox'
      ? await runtime.sql<{ n: number }[]>`select count(*)::int as n from outbox where sent_at is null`
      : await runtime.sql<{ n: number }[]>`
          select count(*)::int as n from timeline_entries where type = 'escalation_triggered'`;
  return row!.n;
}

/** Relays the outbox until it is empty: the chat jobs are then in Redis, and only there. */
async function relayEverything(worker: RunningWorker, runtime: TestRuntime): Promise<void> {
  await waitFor(
    async () => {
      await worker.tick();
      return (await countOf(runtime, 'unsent outbox')) === 0;
    },
    { what: 'outbox relayed' },
  );
}

/** Messages of the fake chat whose text contains `needle`, in every channel. */
function postsContaining(fake: FakeChatApi, needle: string): number {
  return fake.channels().flatMap((c) => c.messages.filter((m) => m.text?.includes(needle))).length;
}

describe('chat recovery after Redis restarted empty', () => {
  it('gives each incident its channel, card, posts, page and rename, each once', async () => {
    const h = await harness();
    const alice = await chatUser(h.runtime, 'Alice', 'U0ALICE01');
    await defaultPolicyPaging(h.runtime, [alice.id]);
    const paged = await h.open('Paged while Redis restarts');
    const resolved = await h.open('Resolved while Redis restarts');
    // Both escalations fire (the worker runs): each writes a page for the chat queue.
    await waitFor(async () => (await countOf(h.runtime, 'escalation entries')) === 2, { what: 'pages' });
    await addNote(h.runtime.ctx, actor, { id: paged.id }, { text: 'first note on the paged one' });
    await addNote(h.runtime.ctx, actor, { id: resolved.id }, { text: 'first note on the resolved one' });
    await updateIncident(h.runtime.ctx, actor, { id: resolved.id }, { status: 'resolved' });
    await relayEverything(h.worker, h.runtime);
    expect((await h.worker.queues.depths()).chat.waiting).toBeGreaterThan(0);

    // Redis restarts empty (this test's keys only): the chat jobs are gone, no chat job ever ran.
    await deleteRedisKeys(h.runtime.ctx.redisPrefix);
    expect((await h.worker.queues.depths()).chat.waiting).toBe(0);
    expect(h.fake.calls).toEqual([]);

    const chat = startRecoveringChat(h.runtime);
    await waitFor(async () => (await chat.recoverLostWork()) === 0, {
      what: 'nothing owed any more',
      timeoutMs: 30_000,
    });
    await h.idle();
    // Further passes find nothing owed, and queue nothing.
    expect(await chat.recoverLostWork()).toBe(0);
    await h.idle();

    const created = h.fake.callsTo('conversations.create').filter((c) => c.response?.ok);
    expect(created.map((c) => c.args.name).sort()).toEqual([
      `inc-${paged.number}-paged-while-redis-restarts`,
      `inc-${resolved.number}-resolved-while-redis-restarts`,
    ]);
    const pagedChannel = await h.channelOf(paged.id);
    const resolvedChannel = await h.channelOf(resolved.id);
    expect(texts(h.fake, pagedChannel)).toEqual([
      expect.stringContaining('Paged while Redis restarts'), // the card
      expect.stringMatching(/^🚨 \*Escalation\*.*<@U0ALICE01>/),
      expect.stringContaining('first note on the paged one'),
    ]);
    expect(texts(h.fake, resolvedChannel)).toEqual([
      expect.stringContaining('Resolved while Redis restarts'),
      expect.stringMatching(/^🚨 \*Escalation\*/),
      expect.stringContaining('first note on the resolved one'),
      expect.stringContaining('*Resolved*'),
    ]);
    expect(h.fake.channel(resolvedChannel)!.name).toBe(
      `resolved-inc-${resolved.number}-resolved-while-redis-restarts`,
    );
    // The incident still triggered pages Alice once; the resolved one no longer pages anybody.
    expect(h.fake.dms('U0ALICE01')).toHaveLength(1);
    expect(h.fake.dms('U0ALICE01')[0]!.text).toContain(`INC-${paged.number}`);
    expect(await h.failures(paged.id)).toEqual([]);
    expect(await h.failures(resolved.id)).toEqual([]);
  });

  it('leaves work whose job reached the queue within the grace to that job', async () => {
    const h = await harness();
    const incident = await h.open('Opened a while ago, relayed just now');
    // Written 20 minutes ago (Redis was down since), handed to the queue only now.
    await h.runtime
      .sql`update incidents set created_at = now() - interval '20 minutes' where id = ${incident.id}`;
    await relayEverything(h.worker, h.runtime);
    const chat = startChatWorker(h.runtime.ctx, {
      redis: h.runtime.redisConfig,
      chat: h.runtime.config.chat,
      publicUrl: PUBLIC_URL,
      recovery: { graceMs: 10 * 60 * 1000, intervalMs: AN_HOUR },
    });
    cleanups.push(() => chat.stop());
    // Its relayed job is at work or about to be: a second one would only be a duplicate.
    expect(await chat.recoverLostWork()).toBe(0);
    await h.idle();
    expect(h.fake.callsTo('conversations.create')).toHaveLength(1);
  });

  it('leaves alone what chat gave up on, and incidents opened while chat was off', async () => {
    const h = await harness();
    // Opened 40 minutes ago while chat was off: its job did nothing, and no channel is coming.
    const before = await h.open('Opened while chat was off');
    await h.runtime
      .sql`update incidents set created_at = now() - interval '40 minutes' where id = ${before.id}`;
    await relayEverything(h.worker, h.runtime);
    await deleteRedisKeys(h.runtime.ctx.redisPrefix);
    const chat = startRecoveringChat(h.runtime);
    // The pass at start is done before the next incident opens: with no grace in this test, a pass
    // running while that incident's own job is still queued would rightly queue a second one.
    await chat.recoverLostWork();
    // Chat refuses to create this one's channel for good.
    h.fake.removeScopes('channels:manage');
    const refused = await h.open('Channel refused');
    await waitFor(async () => (await h.failures(refused.id)).length === 1, { what: 'the refusal' });
    await h.idle();

    expect(await chat.recoverLostWork()).toBe(0);
    await h.idle();
    expect(h.fake.callsTo('conversations.create').map((c) => c.args.name)).toEqual([
      `inc-${refused.number}-channel-refused`,
    ]);
  });

  it('pages nobody twice when an escalation notice is sent again', async () => {
    const h = await harness();
    const alice = await chatUser(h.runtime, 'Alice', 'U0ALICE01');
    await defaultPolicyPaging(h.runtime, [alice.id]);
    const incident = await h.open('Paged once');
    startRecoveringChat(h.runtime);
    const channelId = await h.channelOf(incident.id);
    await waitFor(() => texts(h.fake, channelId).length === 2, { what: 'channel mention' });
    await h.idle();
    const [entry] = await h.runtime.sql<{ id: string }[]>`
      select id from timeline_entries where incident_id = ${incident.id} and type = 'escalation_triggered'`;

    // The same notice again, as a recovery job would send it if it found the page owed.
    await h.worker.queues.enqueue(
      'chat.escalation_notice',
      { incident_id: incident.id, entry_id: entry!.id },
      { jobId: 'notice-again' },
    );
    await h.idle();
    expect(h.fake.dms('U0ALICE01')).toHaveLength(1);
    expect(postsContaining(h.fake, '🚨 *Escalation*')).toBe(1);
  });
});

describe('chat recovery of pages', () => {
  /** The incident's escalation step, written again (as later steps would be) with no job of its own. */
  async function missedStepsAfter(runtime: TestRuntime, incidentId: string, count: number) {
    for (let n = 0; n < count; n++) {
      await runtime.sql`
        insert into timeline_entries (incident_id, type, actor_type, actor_name, data)
        select incident_id, type, actor_type, actor_name, data from timeline_entries
        where incident_id = ${incidentId} and type = 'escalation_triggered' order by seq limit 1`;
    }
    const steps = await runtime.sql<{ id: string }[]>`
      select id from timeline_entries
      where incident_id = ${incidentId} and type = 'escalation_triggered' order by seq`;
    return steps.map((s) => s.id);
  }

  async function pagedEntries(runtime: TestRuntime): Promise<string[]> {
    const rows = await runtime.sql<{ entry_id: string }[]>`
      select entry_id from chat_direct_messages order by entry_id`;
    return rows.map((r) => r.entry_id);
  }

  it('sends only the latest missed step of each incident', async () => {
    const h = await harness();
    const alice = await chatUser(h.runtime, 'Alice', 'U0ALICE01');
    await defaultPolicyPaging(h.runtime, [alice.id]);
    const first = await h.open('Three steps missed');
    const second = await h.open('Three steps missed too');
    await waitFor(async () => (await countOf(h.runtime, 'escalation entries')) === 2, { what: 'pages' });
    const firstSteps = await missedStepsAfter(h.runtime, first.id, 2);
    const secondSteps = await missedStepsAfter(h.runtime, second.id, 2);
    await relayEverything(h.worker, h.runtime);
    await deleteRedisKeys(h.runtime.ctx.redisPrefix);

    const chat = startRecoveringChat(h.runtime);
    await waitFor(async () => (await chat.recoverLostWork()) === 0, {
      what: 'nothing owed any more',
      timeoutMs: 30_000,
    });
    await h.idle();

    // One page per incident, for its latest step: the earlier ones are stale.
    expect(h.fake.dms('U0ALICE01')).toHaveLength(2);
    expect(await pagedEntries(h.runtime)).toEqual([firstSteps.at(-1), secondSteps.at(-1)].sort());
  });

  /** A later step of the incident paging `people` (as the next tier would), with no job of its own. */
  async function laterStepPaging(
    runtime: TestRuntime,
    incidentId: string,
    people: Array<{ id: string; name: string; slack_user_id: string | null }>,
  ): Promise<string> {
    const targets = people.map((p) => ({ id: p.id, name: p.name, slack_user_id: p.slack_user_id }));
    const [step] = await runtime.sql<{ id: string }[]>`
      insert into timeline_entries (incident_id, type, actor_type, actor_name, data)
      select incident_id, type, actor_type, actor_name,
             jsonb_set(data, '{targets}', ${runtime.sql.json(targets)}, false)
      from timeline_entries
      where incident_id = ${incidentId} and type = 'escalation_triggered' order by seq limit 1
      returning id`;
    return step!.id;
  }

  async function recoverEverything(h: ChatHarness): Promise<void> {
    await relayEverything(h.worker, h.runtime);
    await deleteRedisKeys(h.runtime.ctx.redisPrefix);
    const chat = startRecoveringChat(h.runtime);
    await waitFor(async () => (await chat.recoverLostWork()) === 0, {
      what: 'nothing owed any more',
      timeoutMs: 30_000,
    });
    await h.idle();
  }

  it('pages the first tier a later tier passed over, each person once', async () => {
    const h = await harness();
    const alice = await chatUser(h.runtime, 'Alice', 'U0ALICE01');
    const bob = await chatUser(h.runtime, 'Bob', 'U0BOB0002');
    await defaultPolicyPaging(h.runtime, [alice.id]);
    const incident = await h.open('Both tiers missed');
    await waitFor(async () => (await countOf(h.runtime, 'escalation entries')) === 1, { what: 'page' });
    const [firstStep] = await missedStepsAfter(h.runtime, incident.id, 0);
    // Nobody acknowledged the page chat never delivered, so the second tier (Bob) fired too.
    const secondStep = await laterStepPaging(h.runtime, incident.id, [bob]);

    await recoverEverything(h);
    // Alice was passed over, not paged again: her only page is still owed, as is Bob's.
    expect(h.fake.dms('U0ALICE01')).toHaveLength(1);
    expect(h.fake.dms('U0BOB0002')).toHaveLength(1);
    expect(await pagedEntries(h.runtime)).toEqual([firstStep, secondStep].sort());
  });

  it('sends no step that would page someone a later step paged again', async () => {
    const h = await harness();
    const alice = await chatUser(h.runtime, 'Alice', 'U0ALICE01');
    const bob = await chatUser(h.runtime, 'Bob', 'U0BOB0002');
    await defaultPolicyPaging(h.runtime, [alice.id, bob.id]);
    const incident = await h.open('Alice on both tiers');
    await waitFor(async () => (await countOf(h.runtime, 'escalation entries')) === 1, { what: 'page' });
    const secondStep = await laterStepPaging(h.runtime, incident.id, [alice]);

    await recoverEverything(h);
    // The first step's job would page Alice a second time, late: the second step pages her, once.
    expect(h.fake.dms('U0ALICE01')).toHaveLength(1);
    expect((await pagedEntries(h.runtime)).filter((entry) => entry === secondStep)).toHaveLength(1);
  });

  it('does not page again for a step chat gave up on', async () => {
    const h = await harness();
    const alice = await chatUser(h.runtime, 'Alice', 'U0ALICE01');
    await defaultPolicyPaging(h.runtime, [alice.id]);
    const incident = await h.open('Paged through an outage');
    await waitFor(async () => (await countOf(h.runtime, 'escalation entries')) === 1, { what: 'page' });
    await relayEverything(h.worker, h.runtime);
    // The notice's job ran out of tries in a chat outage: its last try wrote this, and no message.
    await deleteRedisKeys(h.runtime.ctx.redisPrefix);
    await chat.recordChatFailureOnce(
      h.runtime.sql,
      incident.id,
      { platform: 'slack', operation: 'direct_message', code: 'service_unavailable' },
      new Date(),
    );

    const recovering = startRecoveringChat(h.runtime);
    await waitFor(async () => (await recovering.recoverLostWork()) === 0, {
      what: 'nothing owed any more',
      timeoutMs: 30_000,
    });
    await h.idle();
    // The channel still gets its card and the step; nobody is paged late.
    const channelId = await h.channelOf(incident.id);
    expect(texts(h.fake, channelId)).toEqual([
      expect.stringContaining('Paged through an outage'),
      expect.stringMatching(/^🚨 \*Escalation\*/),
    ]);
    expect(h.fake.dms('U0ALICE01')).toEqual([]);
  });
});

describe('chat recovery when Redis comes back', () => {
  it('recovers at once, without waiting for its timer', async () => {
    const redis = await PrivateRedis.start();
    cleanups.push(() => redis.destroy());
    const fake = await startFakeChatApi();
    cleanups.push(() => fake.close());
    const runtime = await createTestRuntime({
      redisUrl: redis.url,
      env: { CHAT_BOT_TOKEN: fake.botToken, CHAT_API_URL: fake.url, PUBLIC_URL },
    });
    cleanups.push(() => runtime.cleanup());
    const worker = await startWorker(runtime.ctx, {
      redis: runtime.redisConfig,
      ai: runtime.config.ai,
      intervalMs: 200,
    });
    cleanups.push(() => worker.stop());
    startRecoveringChat(runtime);

    // The chat service is down: the channel's job waits in Redis for its next try.
    fake.outage();
    const incident = await createIncident(runtime.ctx, actor, {
      title: 'Opened in an outage',
      severity: 'high',
    });
    await relayEverything(worker, runtime);
    await waitFor(() => fake.calls.length > 0, { what: 'a first try' });
    await redis.kill();
    await redis.start();
    fake.endOutage();

    const channel = await waitFor(
      async () => {
        const [row] = await runtime.sql<{ chat_card_ts: string | null; chat_channel_id: string }[]>`
          select card_id as chat_card_ts, channel_id as chat_channel_id from chat_channels
          where incident_id = ${incident.id} and platform = 'slack'`;
        return row?.chat_card_ts ? row.chat_channel_id : undefined;
      },
      { what: 'channel and card after Redis came back', timeoutMs: 20_000 },
    );
    expect(fake.callsTo('conversations.create').filter((c) => c.response?.ok)).toHaveLength(1);
    expect(fake.messages(channel)).toHaveLength(1);
  });
});
