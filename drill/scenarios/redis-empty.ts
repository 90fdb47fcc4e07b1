// Escalation timers live in PostgreSQL alone (docs/architecture.md#timers-are-rows).
// And what a chat channel has heard is in PostgreSQL too (docs/integrations/slack.md#recovery).
// The drill: Redis restarted empty (every queued chat job lost; no escalation timer lives there), and still
// the reconciler fires every due step, once, and the chat reconciler delivers every lost channel, card,
// post and page, once.
import { chatDelivered, chatWorkOwed, startChat } from '../lib/chat';
import {
  defaultTwoTierPolicy,
  escalationEntries,
  firedSteps,
  openIncidents,
  pagesReceived,
} from '../lib/escalation';
import { sleep, verdict } from '../lib/harness';
import { queueKey, withRedis } from '../lib/redis';
import { api, startFirebreak, startPostgres, startRedis, withSql } from '../lib/service';
import type { Drill } from '../lib/types';

// A step may fire this late (reconciler period 1 s, plus a restarted Redis and a busy 2-core machine).
const LATE_LIMIT_MS = 5_000;
// Lost chat work is owed for the chat reconciler's grace (30 s) plus one of its periods (15 s).
const CHAT_RECOVERY_LIMIT_MS = 90_000;

export const redisEmpty: Drill<{ incidents: number; lostChannels: number; tierTimeoutSeconds: number }> = {
  name: 'redis-empty',
  promise:
    'Redis restarted empty: the reconciler fires every due escalation step, once; lost chat work arrives, once',
  timeoutMs: 300_000,
  async run(defer, { incidents = 30, lostChannels = 10, tierTimeoutSeconds = 10 }) {
    const { chat, env } = await startChat(defer);
    // No persistence: a restart comes back empty, as a Redis without a volume would.
    const [{ databaseUrl }, redis] = await Promise.all([startPostgres(defer), startRedis(defer)]);
    const service = await startFirebreak(defer, { databaseUrl, redisUrl: redis.url }, env);
    await defaultTwoTierPolicy(service, tierTimeoutSeconds);

    const ids = await openIncidents([service], incidents, 'Drill empty Redis');
    // Tier 1 fires at creation and is paged; tier 2 is due seconds away, a row in PostgreSQL.
    // (Jobs still queued when a Redis without persistence restarts are lost with it, which is why the
    // store runs with append-only persistence. What must survive are the timers, which live in PostgreSQL.)
    const setUpBy = Date.now() + 30_000;
    while (Date.now() < setUpBy && pagesReceived(chat).tier1 < incidents) await sleep(250);
    while (Date.now() < setUpBy && (await chatWorkOwed(databaseUrl, ids)) > 0) await sleep(250);

    // Chat goes down: a note on each incident, and new incidents (channel, card, tier-1 page), wait
    // in Redis as chat jobs retrying — the jobs the restart then loses.
    chat.outage();
    const notes = ids.map((id) => `Drill note for ${id}`);
    await Promise.all(
      ids.map((id, i) => api(service, 'POST', `/api/v1/incidents/${id}/notes`, { text: notes[i] })),
    );
    const newIds = await openIncidents([service], lostChannels, 'Drill lost channel');
    const allIds = [...ids, ...newIds];
    // The new incidents' first steps fire (their pages are chat jobs too), and everything is relayed.
    const relayedBy = Date.now() + 30_000;
    const firstSteps = async () => (await firedSteps(databaseUrl, newIds)).filter((s) => s.tier === 0).length;
    while (Date.now() < relayedBy && (await firstSteps()) < lostChannels) await sleep(250);
    while (Date.now() < relayedBy && (await unrelayedRows(databaseUrl)) > 0) await sleep(250);

    const queued = () =>
      withRedis(redis.url, async (r) => ({
        wakeUps: await r.zcard(queueKey('escalation', 'delayed')),
        chatJobs: (await r.zcard(queueKey('chat', 'delayed'))) + (await r.llen(queueKey('chat', 'wait'))),
      }));
    const before = await queued();
    await redis.kill();
    await redis.start();
    const after = await queued();
    const backAt = Date.now();
    chat.endOutage();

    const total = allIds.length;
    const deadline = Date.now() + (tierTimeoutSeconds + 30) * 1000;
    let steps = await firedSteps(databaseUrl, allIds);
    while (Date.now() < deadline && steps.length < 2 * total) {
      await sleep(500);
      steps = await firedSteps(databaseUrl, allIds);
    }
    const chatDeadline = backAt + CHAT_RECOVERY_LIMIT_MS;
    let owed = await chatWorkOwed(databaseUrl, allIds);
    while (Date.now() < chatDeadline && (owed > 0 || pagesReceived(chat).tier1 < total)) {
      await sleep(500);
      owed = await chatWorkOwed(databaseUrl, allIds);
    }
    const chatRecoveredMs = Date.now() - backAt;
    await sleep(3000); // any late duplicate would show up by now
    steps = await firedSteps(databaseUrl, allIds);
    const secondTier = steps.filter((step) => step.tier === 1);
    const latest = Math.max(0, ...secondTier.map((step) => step.late_ms));
    const entries = await escalationEntries(databaseUrl, allIds);
    const pages = pagesReceived(chat);
    const delivered = chatDelivered(chat, notes);

    return verdict(
      {
        incidents: `${incidents} + ${lostChannels} opened while chat was down`,
        'wake-up jobs before / after': `${before.wakeUps} / ${after.wakeUps}`,
        'chat jobs before / after': `${before.chatJobs} / ${after.chatJobs}`,
        'tier-2 steps fired': secondTier.length,
        'latest step ms late': Math.round(latest),
        'escalation entries': entries,
        'tier-1 pages': pages.tier1,
        'tier-2 pages': pages.tier2,
        'chat recovered after s': Math.round(chatRecoveredMs / 100) / 10,
        'channels / cards / notes posted once': `${delivered.channels} / ${delivered.cards} / ${delivered.notesOnce}`,
      },
      {
        // Escalation timers live in PostgreSQL only: there is no wake-up job in Redis to lose.
        'no escalation timer waits in Redis': before.wakeUps === 0 && after.wakeUps === 0,
        'the chat jobs were lost': before.chatJobs > 0 && after.chatJobs === 0,
        'every tier-2 step fired': secondTier.length === total,
        [`no step later than ${LATE_LIMIT_MS} ms`]: latest <= LATE_LIMIT_MS,
        'one timeline entry per step': entries === 2 * total,
        'every page sent exactly once': pages.tier1 === total && pages.tier2 === total,
        'no chat work still owed': owed === 0,
        'one channel per incident': delivered.channels === total && delivered.doubledChannels === 0,
        'one card per channel': delivered.cards === total,
        'every note posted once': delivered.notesOnce === incidents,
      },
    );
  },
};

async function unrelayedRows(databaseUrl: string): Promise<number> {
  return withSql(databaseUrl, async (sql) => {
    const [row] = await sql<{ n: number }[]>`select count(*)::int as n from outbox where sent_at is null`;
    return row!.n;
  });
}
