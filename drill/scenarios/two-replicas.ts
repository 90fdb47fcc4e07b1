// Any number of worker replicas page each target once (docs/architecture.md#timers-are-rows). The drill:
// two `pnpm start` replicas on one database and one Redis, escalations opened through both: every page
// exactly once.
import { startChat } from '../lib/chat';
import {
  defaultTwoTierPolicy,
  escalationEntries,
  firedSteps,
  openIncidents,
  pagesReceived,
} from '../lib/escalation';
import { sleep, verdict } from '../lib/harness';
import { startFirebreak, startPostgres, startRedis } from '../lib/service';
import type { Drill } from '../lib/types';

export const twoReplicas: Drill<{ incidents: number; tierTimeoutSeconds: number }> = {
  name: 'two-replicas',
  promise: 'Two replicas share the work: no page doubled, none missed',
  timeoutMs: 180_000,
  async run(defer, { incidents = 40, tierTimeoutSeconds = 2 }) {
    const { chat, env } = await startChat(defer);
    const [{ databaseUrl }, redis] = await Promise.all([startPostgres(defer), startRedis(defer)]);
    const first = await startFirebreak(defer, { databaseUrl, redisUrl: redis.url }, env);
    const second = await startFirebreak(defer, { databaseUrl, redisUrl: redis.url }, env);
    await defaultTwoTierPolicy(first, tierTimeoutSeconds);

    const ids = await openIncidents([first, second], incidents, 'Drill two replicas');
    const deadline = Date.now() + (tierTimeoutSeconds + 60) * 1000;
    const expectedPages = () => {
      const pages = pagesReceived(chat);
      return pages.tier1 >= incidents && pages.tier2 >= incidents;
    };
    while (Date.now() < deadline && !expectedPages()) await sleep(500);
    await sleep(3000); // any late duplicate would show up by now

    const steps = await firedSteps(databaseUrl, ids);
    const entries = await escalationEntries(databaseUrl, ids);
    const pages = pagesReceived(chat);
    const firedBy = [first, second].map(
      (replica) => (replica.process.output().match(/"msg":"escalation_triggered"/g) ?? []).length,
    );
    return verdict(
      {
        incidents,
        'steps fired': steps.length,
        'escalation entries': entries,
        'tier-1 pages': pages.tier1,
        'tier-2 pages': pages.tier2,
        'steps fired by replica 1 / 2': `${firedBy[0]} / ${firedBy[1]}`,
      },
      {
        'every step fired once': steps.length === 2 * incidents && entries === 2 * incidents,
        'every page delivered exactly once': pages.tier1 === incidents && pages.tier2 === incidents,
      },
    );
  },
};
