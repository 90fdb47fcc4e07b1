// Escalation timers live in PostgreSQL; Redis only wakes the worker (docs/architecture.md#timers-are-rows).
// The drill: Redis restarted empty (every delayed wake-up job lost) and the reconciler still fires every
// due step, once.
import { startChat } from '../lib/chat';
import {
  defaultTwoTierPolicy,
  escalationEntries,
  firedSteps,
  openIncidents,
  pagesReceived,
} from '../lib/escalation';
import { sleep, verdict } from '../lib/harness';
import { queueKey, withRedis } from '../lib/redis';
import { startFirebreak, startPostgres, startRedis } from '../lib/service';
import type { Drill } from '../lib/types';

// A step may fire this late (reconciler period 1 s, plus a restarted Redis and a busy 2-core machine).
const LATE_LIMIT_MS = 5_000;

export const redisEmpty: Drill<{ incidents: number; tierTimeoutSeconds: number }> = {
  name: 'redis-empty',
  promise: 'Redis restarted empty: the reconciler fires every due escalation step, once',
  timeoutMs: 180_000,
  async run(defer, { incidents = 30, tierTimeoutSeconds = 10 }) {
    const { chat, env } = await startChat(defer);
    // No persistence: a restart comes back empty, as a Redis without a volume would.
    const [{ databaseUrl }, redis] = await Promise.all([startPostgres(defer), startRedis(defer)]);
    const service = await startFirebreak(defer, { databaseUrl, redisUrl: redis.url }, env);
    await defaultTwoTierPolicy(service, tierTimeoutSeconds);

    const ids = await openIncidents([service], incidents, 'Drill empty Redis');
    // Tier 1 fires at creation and is paged; tier 2's wake-up jobs now wait in Redis, seconds away.
    // (Jobs still queued when a Redis without persistence restarts are lost with it, which is why the
    // store runs with append-only persistence. What must survive are the timers, which live in PostgreSQL.)
    const setUpBy = Date.now() + 30_000;
    while (Date.now() < setUpBy && pagesReceived(chat).tier1 < incidents) await sleep(250);
    const wakeUps = () => withRedis(redis.url, (r) => r.zcard(queueKey('escalation', 'delayed')));
    const before = await wakeUps();
    await redis.kill();
    await redis.start();
    const after = await wakeUps();

    const deadline = Date.now() + (tierTimeoutSeconds + 30) * 1000;
    let steps = await firedSteps(databaseUrl, ids);
    while (Date.now() < deadline && steps.length < 2 * incidents) {
      await sleep(500);
      steps = await firedSteps(databaseUrl, ids);
    }
    await sleep(3000); // any late duplicate would show up by now
    steps = await firedSteps(databaseUrl, ids);
    const secondTier = steps.filter((step) => step.tier === 1);
    const latest = Math.max(0, ...secondTier.map((step) => step.late_ms));
    const entries = await escalationEntries(databaseUrl, ids);
    const pages = pagesReceived(chat);

    return verdict(
      {
        incidents,
        'wake-up jobs before / after': `${before} / ${after}`,
        'tier-2 steps fired': secondTier.length,
        'latest step ms late': Math.round(latest),
        'escalation entries': entries,
        'tier-1 pages': pages.tier1,
        'tier-2 pages': pages.tier2,
      },
      {
        'the wake-up jobs were lost': before > 0 && after === 0,
        'every tier-2 step fired': secondTier.length === incidents,
        [`no step later than ${LATE_LIMIT_MS} ms`]: latest <= LATE_LIMIT_MS,
        'one timeline entry per step': entries === 2 * incidents,
        'every page sent exactly once': pages.tier1 === incidents && pages.tier2 === incidents,
      },
    );
  },
};
