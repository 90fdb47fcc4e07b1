// A heartbeat's deadline is a row that the worker's reconciler fires, with no Redis involved
// (docs/integrations/heartbeats.md#exactly-once). The drill: two replicas, heartbeats armed by real
// pings, Redis killed before their deadlines and restarted empty after them: every silent heartbeat
// raises exactly one alert, on time; the one kept alive raises nothing; the next ping resolves each.
import { sleep, verdict } from '../lib/harness';
import { withRedis } from '../lib/redis';
import { api, type Firebreak, startFirebreak, startPostgres, startRedis, withSql } from '../lib/service';
import type { Drill } from '../lib/types';

// A miss may be reported this late (reconciler period 1 s, on a busy 2-core machine).
const LATE_LIMIT_MS = 5_000;
// The shortest interval a heartbeat may have (docs/integrations/heartbeats.md).
const MIN_INTERVAL_SECONDS = 30;
const MARKER = 'drill:heartbeats:before-restart';

interface Heartbeat {
  id: string;
  key: string;
}

export const heartbeats: Drill<{ heartbeats: number; intervalSeconds: number }> = {
  name: 'heartbeats',
  promise: 'Heartbeats due while Redis is down and restarts empty: each silent one raises one alert, on time',
  timeoutMs: 180_000,
  async run(defer, { heartbeats: count = 30, intervalSeconds = MIN_INTERVAL_SECONDS }) {
    // No persistence: a restart comes back empty, as a Redis without a volume would.
    const [{ databaseUrl }, redis] = await Promise.all([startPostgres(defer), startRedis(defer)]);
    const replicas = [
      await startFirebreak(defer, { databaseUrl, redisUrl: redis.url }),
      await startFirebreak(defer, { databaseUrl, redisUrl: redis.url }),
    ];
    const silent: Heartbeat[] = [];
    for (let i = 0; i < count; i++)
      silent.push(await createHeartbeat(replicas[0]!, `Drill job ${i}`, intervalSeconds));
    const alive = await createHeartbeat(replicas[0]!, 'Drill kept alive', intervalSeconds);

    // Armed through both replicas, as senders behind a load balancer would.
    const armedAt = Date.now();
    const pingFailures = await pingAll(replicas, [...silent, alive]);
    const keepAlive = keepPinging(replicas[1]!, alive, 5_000);
    defer(() => keepAlive.stop());

    // Redis goes away before the deadlines and comes back empty after them.
    await withRedis(redis.url, (r) => r.set(MARKER, '1'));
    await sleep(Math.max(0, armedAt + (intervalSeconds - 5) * 1000 - Date.now()));
    await redis.kill();
    await sleep(Math.max(0, armedAt + (intervalSeconds + 3) * 1000 - Date.now()));
    const missedWhileDown = (await missedStates(databaseUrl, silent)).filter((s) => s.missed_at).length;
    await redis.start();
    const restartedEmpty = (await withRedis(redis.url, (r) => r.exists(MARKER))) === 0;

    const waitUntil = Date.now() + 30_000;
    while (Date.now() < waitUntil && (await missedStates(databaseUrl, silent)).some((s) => !s.missed_at))
      await sleep(500);
    await sleep(3000); // any late duplicate would show up by now
    const states = await missedStates(databaseUrl, silent);
    const missed = states.filter((s) => s.missed_at).length;
    const latest = Math.max(0, ...states.map((s) => s.late_ms ?? 0));
    const stored = await alertsOf(databaseUrl, [...silent, alive]);
    const silentAlerts = stored.filter((a) => a.integration_id !== alive.id);
    const aliveAlerts = stored.length - silentAlerts.length;
    const incidents = new Set(silentAlerts.map((a) => a.incident_id).filter(Boolean)).size;
    const firedBy = logCounts(replicas, 'heartbeat missed');
    const keptAlive = await keepAlive.stop();

    // The next ping of each silent heartbeat resolves its alert.
    const recoveryPingFailures = await pingAll(replicas, silent);
    const resolved = (await alertsOf(databaseUrl, silent)).filter((a) => a.status === 'resolved').length;
    const stillMissed = (await missedStates(databaseUrl, silent)).filter((s) => s.missed_at).length;

    return verdict(
      {
        heartbeats: count,
        'missed while Redis was down': missedWhileDown,
        'missed / alerts / incidents': `${missed} / ${silentAlerts.length} / ${incidents}`,
        'latest miss ms late': Math.round(latest),
        'misses reported by replica 1 / 2': `${firedBy[0]} / ${firedBy[1]}`,
        'kept-alive pings / alerts': `${keptAlive.pings} / ${aliveAlerts}`,
        'resolved by the next ping': resolved,
      },
      {
        'Redis restarted empty': restartedEmpty,
        'every ping answered 200': pingFailures + keptAlive.failures + recoveryPingFailures === 0,
        'every silent heartbeat missed': missed === count,
        'one alert per missed heartbeat':
          silentAlerts.length === count && firedBy[0]! + firedBy[1]! === count,
        'one incident per missed heartbeat': incidents === count,
        [`no miss later than ${LATE_LIMIT_MS} ms`]: latest <= LATE_LIMIT_MS,
        'the kept-alive heartbeat raised nothing': aliveAlerts === 0,
        'the next ping resolved every alert': resolved === count && stillMissed === 0,
      },
    );
  },
};

async function createHeartbeat(
  service: Firebreak,
  name: string,
  intervalSeconds: number,
): Promise<Heartbeat> {
  return api<Heartbeat>(service, 'POST', '/api/v1/integrations', {
    name,
    type: 'heartbeat',
    interval_seconds: intervalSeconds,
    grace_seconds: 0,
    severity: 'critical',
  });
}

/** A ping as cron's `curl` sends it: a GET, no credentials but the key in the URL. */
async function ping(service: Firebreak, heartbeat: Heartbeat): Promise<boolean> {
  try {
    const res = await fetch(`${service.url}/api/v1/intake/${heartbeat.key}`, {
      signal: AbortSignal.timeout(5000),
    });
    const body = (await res.json()) as { status?: string };
    return res.status === 200 && body.status === 'up';
  } catch {
    return false;
  }
}

/** Pings each heartbeat once, alternating replicas; answers how many pings failed. */
async function pingAll(replicas: Firebreak[], list: Heartbeat[]): Promise<number> {
  const answers = await Promise.all(list.map((hb, i) => ping(replicas[i % replicas.length]!, hb)));
  return answers.filter((ok) => !ok).length;
}

function keepPinging(service: Firebreak, heartbeat: Heartbeat, everyMs: number) {
  let running = true;
  const counts = { pings: 0, failures: 0 };
  const loop = (async () => {
    while (running) {
      await sleep(everyMs);
      if (!running) break;
      counts.pings += 1;
      if (!(await ping(service, heartbeat))) counts.failures += 1;
    }
  })();
  return {
    stop: async () => {
      running = false;
      await loop;
      return counts;
    },
  };
}

async function missedStates(databaseUrl: string, list: Heartbeat[]) {
  return withSql(
    databaseUrl,
    (sql) => sql<{ id: string; missed_at: Date | null; late_ms: number | null }[]>`
      select id, heartbeat_missed_at as missed_at,
        (extract(epoch from heartbeat_missed_at - heartbeat_next_due_at) * 1000)::float8 as late_ms
      from integrations where id = any(${list.map((hb) => hb.id)})`,
  );
}

async function alertsOf(databaseUrl: string, list: Heartbeat[]) {
  return withSql(
    databaseUrl,
    (sql) => sql<{ integration_id: string; status: string; incident_id: string | null }[]>`
      select integration_id, status, incident_id from alerts
      where integration_id = any(${list.map((hb) => hb.id)})`,
  );
}

function logCounts(replicas: Firebreak[], msg: string): number[] {
  const pattern = new RegExp(`"msg":"${msg}"`, 'g');
  return replicas.map((replica) => (replica.process.output().match(pattern) ?? []).length);
}
