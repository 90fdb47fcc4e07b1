// PostgreSQL fails over and the service follows it unaided (docs/production-topology.md,
// docs/runbooks/database-failover.md). The drill: the split deployment with a pg_auto_failover formation
// (monitor, primary, synchronous standby), two ingest and two worker replicas behind nginx; alerts at
// 20/s from senders that retry 5xx as Alertmanager does; escalations whose second tier falls due while
// no server takes writes. The primary node is killed (SIGKILL to its keeper, PostgreSQL and backends at
// once). No alert may be lost or stored twice, every step must page once, and alerts must be taken again
// within 60 s of the kill.
import { startChat } from '../lib/chat';
import { alertsExactlyOnce } from '../lib/checks';
import {
  defaultTwoTierPolicy,
  escalationEntries,
  firedSteps,
  openIncidents,
  pagesReceived,
} from '../lib/escalation';
import { sleep, verdict } from '../lib/harness';
import { AlertSender } from '../lib/sender';
import { startDrillDeployment } from '../lib/split';
import type { Drill } from '../lib/types';

const RECOVERY_LIMIT_MS = 60_000;

export const postgresFailover: Drill<{ ratePerSecond: number; incidents: number; tierSeconds: number }> = {
  name: 'postgres-failover',
  promise:
    'PostgreSQL primary killed under 20 alerts/s (pg_auto_failover; 2 ingest + 2 workers behind nginx): alerts taken again ≤ 60 s after the kill, none lost or doubled; steps due meanwhile page once',
  timeoutMs: 480_000,
  async run(defer, { ratePerSecond = 20, incidents = 10, tierSeconds = 6 }) {
    const { chat, env } = await startChat(defer);
    const deployment = await startDrillDeployment(defer, {
      postgresFailover: 'fast',
      replicas: { ingest: 2, worker: 2 },
      appEnv: env,
    });
    const failover = deployment.failover!;
    const databaseUrl = deployment.databaseUrl;
    const service = { url: deployment.url, token: deployment.token };

    await defaultTwoTierPolicy(service, tierSeconds);

    let killedAt = Number.POSITIVE_INFINITY;
    let firstAcceptedAt = Number.NaN;
    const sender = new AlertSender({
      url: deployment.url,
      ratePerSecond,
      severity: 'info',
      prefix: 'pg-failover',
      onAnswer: (status, sentAt, answeredAt) => {
        if (status === 200 && sentAt > killedAt && Number.isNaN(firstAcceptedAt))
          firstAcceptedAt = answeredAt;
      },
    }).start();
    await sleep(3000);
    // Tier 1 fires as the incidents open; the kill follows at once, so tier 2 falls due in the failover.
    const ids = await openIncidents([service], incidents, 'Drill failover');
    const tier1Fired = Date.now() + 30_000;
    while ((await firedSteps(databaseUrl, ids)).length < incidents && Date.now() < tier1Fired)
      await sleep(100);

    const killed = (await failover.primary())!;
    await failover.nodes[killed].killGroup();
    killedAt = Date.now();
    let promotedMs = Number.NaN;
    while (Date.now() - killedAt < 2 * RECOVERY_LIMIT_MS) {
      const now = await failover.primary();
      if (now && now !== killed) {
        promotedMs = Date.now() - killedAt;
        break;
      }
      await sleep(250);
    }
    while (Number.isNaN(firstAcceptedAt) && Date.now() - killedAt < 2 * RECOVERY_LIMIT_MS) await sleep(250);
    const recoveredMs = firstAcceptedAt - killedAt;
    await sleep(15_000); // alerts keep coming on the new primary
    const sent = await sender.stop();

    const pagesDue = Date.now() + 60_000;
    while (pagesReceived(chat).tier2 < incidents && Date.now() < pagesDue) await sleep(500);
    await sleep(3000); // a doubled page would show by now

    const alerts = await alertsExactlyOnce(databaseUrl, sender.ids);
    const steps = await firedSteps(databaseUrl, ids);
    const entries = await escalationEntries(databaseUrl, ids);
    const pages = pagesReceived(chat);
    // Tier 2 was due `tierSeconds` after tier 1 fired: in the window the drill means to cover.
    const dueDuring = steps.filter((step) => {
      const due = new Date(step.due_at).getTime();
      return step.tier === 1 && due > killedAt && due < firstAcceptedAt;
    }).length;

    return verdict(
      {
        'primary killed': killed,
        'promoted ms after kill': promotedMs,
        'first accepted alert ms after kill': recoveredMs,
        'alerts sent': sent.sent,
        'sender retries': sent.retries,
        'alerts missing': alerts.missing,
        'alerts duplicated': alerts.duplicated,
        'tier-2 steps due during the failover': dueDuring,
        'steps fired': steps.length,
        'tier-1 / tier-2 pages': `${pages.tier1} / ${pages.tier2}`,
      },
      {
        'the standby was promoted': !Number.isNaN(promotedMs),
        'alerts accepted again within 60 s of the kill': recoveredMs <= RECOVERY_LIMIT_MS,
        'every alert stored exactly once':
          alerts.missing === 0 && alerts.duplicated === 0 && sent.gaveUp === 0,
        'every tier-2 step fell due during the failover': dueDuring === incidents,
        'every step fired once': steps.length === 2 * incidents && entries === 2 * incidents,
        'every page delivered exactly once': pages.tier1 === incidents && pages.tier2 === incidents,
      },
    );
  },
};
