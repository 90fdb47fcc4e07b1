// A store failover takes 10–30 s and the service reconnects by itself with KV_SENTINEL_ADDRS
// (docs/runbooks/store-failover.md). The drill: a private primary, replica and three sentinels; the
// primary is killed under alert load; the service must follow the new primary within 30 s (its background
// work runs again: an incident opened after the failover gets its chat channel) and lose no alert.
import { startChat } from '../lib/chat';
import { alertsExactlyOnce } from '../lib/checks';
import { sleep, verdict } from '../lib/harness';
import { AlertSender } from '../lib/sender';
import { MASTER_NAME, primaryPort, startSentinels } from '../lib/sentinel';
import { api, startFirebreak, startPostgres, startRedis } from '../lib/service';
import type { Drill } from '../lib/types';

const FOLLOW_LIMIT_MS = 30_000;

export const sentinelFailover: Drill = {
  name: 'sentinel-failover',
  promise: 'Sentinel failover: the service follows the new primary within 30 s, no alert lost',
  timeoutMs: 180_000,
  async run(defer) {
    const { chat, env } = await startChat(defer);
    const [{ databaseUrl }, primary] = await Promise.all([
      startPostgres(defer),
      startRedis(defer, { appendOnly: true }),
    ]);
    const replica = await startRedis(defer, {
      appendOnly: true,
      args: ['--replicaof', '127.0.0.1', String(primary.port)],
    });
    const sentinels = await startSentinels(defer, primary);
    const service = await startFirebreak(
      defer,
      { databaseUrl },
      {
        ...env,
        KV_SENTINEL_ADDRS: sentinels.map((port) => `127.0.0.1:${port}`).join(','),
        KV_SENTINEL_MASTER: MASTER_NAME,
      },
    );
    const sender = new AlertSender({ url: service.url, ratePerSecond: 5, prefix: 'failover' }).start();
    await sleep(3000);

    await primary.kill();
    const killedAt = Date.now();
    let promotedMs = Number.NaN;
    while (Date.now() - killedAt < 60_000) {
      if ((await primaryPort(sentinels[0]!).catch(() => primary.port)) === replica.port) {
        promotedMs = Date.now() - killedAt;
        break;
      }
      await sleep(250);
    }
    // From the promotion on, a fresh incident every second until one gets its channel: that is the
    // moment the service's queues run on the new primary.
    const promotedAt = Date.now();
    let followedMs = Number.NaN;
    const opened: number[] = [];
    while (!Number.isNaN(promotedMs) && Date.now() - promotedAt < 2 * FOLLOW_LIMIT_MS) {
      const incident = await api(service, 'POST', '/api/v1/incidents', {
        title: 'Drill failover',
        severity: 'low',
      });
      opened.push(Number(incident.number));
      const served = chat
        .callsTo('conversations.create')
        .some(
          (call) => call.response?.ok && opened.some((n) => String(call.args.name).startsWith(`inc-${n}-`)),
        );
      if (served) {
        followedMs = Date.now() - promotedAt;
        break;
      }
      await sleep(1000);
    }
    const ready = (await (await fetch(`${service.url}/ready`)).json()) as { redis?: string };
    const sent = await sender.stop();
    const alerts = await alertsExactlyOnce(databaseUrl, sender.ids);

    return verdict(
      {
        'promoted ms after kill': promotedMs,
        'service followed ms after promotion': followedMs,
        '/ready redis after': String(ready.redis),
        'alerts sent': sent.sent,
        'webhook retries': sent.retries,
        'alerts missing': alerts.missing,
        'alerts duplicated': alerts.duplicated,
      },
      {
        'sentinels promoted the replica': !Number.isNaN(promotedMs),
        'service followed within 30 s': followedMs <= FOLLOW_LIMIT_MS,
        '/ready reports redis ok': ready.redis === 'ok',
        'every alert stored exactly once':
          alerts.missing === 0 && alerts.duplicated === 0 && sent.gaveUp === 0,
      },
    );
  },
};
