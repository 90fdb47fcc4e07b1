// With the database unreachable every endpoint answers 500 `database_unavailable` (docs/api.md#errors)
// and `/ready` 503 (docs/api.md#health); the service recovers by itself. The drill: PostgreSQL stopped
// for 30 s under alert load; senders retry; afterwards every alert exists exactly once.
import { alertsExactlyOnce } from '../lib/checks';
import { sleep, verdict } from '../lib/harness';
import { AlertSender } from '../lib/sender';
import { startFirebreak, startPostgres, startRedis } from '../lib/service';
import type { Drill } from '../lib/types';

async function answer(url: string, token?: string): Promise<{ status: number; body: unknown }> {
  const res = await fetch(url, { headers: token ? { authorization: `Bearer ${token}` } : {} });
  return { status: res.status, body: await res.json().catch(() => null) };
}

const codeOf = (body: unknown) => (body as { error?: { code?: string } } | null)?.error?.code;

export const postgresOutage: Drill<{ outageSeconds: number; ratePerSecond: number }> = {
  name: 'postgres-outage',
  promise: 'PostgreSQL stopped: 500 database_unavailable, /ready 503, recovers, no alert lost or doubled',
  timeoutMs: 240_000,
  async run(defer, { outageSeconds = 30, ratePerSecond = 5 }) {
    const [{ pg, databaseUrl }, redis] = await Promise.all([startPostgres(defer), startRedis(defer)]);
    const service = await startFirebreak(defer, { databaseUrl, redisUrl: redis.url });
    const sender = new AlertSender({ url: service.url, ratePerSecond, prefix: 'pg-outage' }).start();
    await sleep(3000);

    await pg.stop();
    const stoppedAt = Date.now();
    await sleep(Math.min(3000, (outageSeconds * 1000) / 2));
    const ready = await answer(`${service.url}/ready`);
    const list = await answer(`${service.url}/api/v1/incidents`, service.token);
    const health = await answer(`${service.url}/health`);
    await sleep(Math.max(0, stoppedAt + outageSeconds * 1000 - Date.now()));

    await pg.start();
    const restartedAt = Date.now();
    let recoveredMs = Number.NaN;
    while (Date.now() - restartedAt < 60_000) {
      if ((await answer(`${service.url}/ready`)).status === 200) {
        recoveredMs = Date.now() - restartedAt;
        break;
      }
      await sleep(250);
    }
    await sleep(2000);
    const sent = await sender.stop();
    const alerts = await alertsExactlyOnce(databaseUrl, sender.ids);
    const webhookFailures = Object.entries(sent.errorCodes);
    const readyBody = ready.body as { status?: string; database?: string };

    return verdict(
      {
        'outage s': outageSeconds,
        '/ready during': `${ready.status} ${JSON.stringify(ready.body)}`,
        'API during': `${list.status} ${codeOf(list.body)}`,
        '/health during': health.status,
        'webhook errors': webhookFailures.map(([code, n]) => `${n}× ${code}`).join(' ') || 'none',
        'alerts sent': sent.sent,
        'sender retries': sent.retries,
        'recovered ms after restart': recoveredMs,
        'alerts missing': alerts.missing,
        'alerts duplicated': alerts.duplicated,
      },
      {
        '/ready answered 503 with database error':
          ready.status === 503 && readyBody.database === 'error' && readyBody.status === 'error',
        'the API answered 500 database_unavailable':
          list.status === 500 && codeOf(list.body) === 'database_unavailable',
        '/health stayed 200': health.status === 200,
        'webhooks answered only database_unavailable': webhookFailures.every(
          ([code]) => code === 'database_unavailable',
        ),
        'the outage was felt by the senders': sent.retries > 0,
        'recovered by itself within 30 s': recoveredMs <= 30_000,
        'every alert stored exactly once':
          alerts.missing === 0 && alerts.duplicated === 0 && sent.gaveUp === 0,
      },
    );
  },
};
