// With the key-value store down the API keeps working and background work waits for it
// (docs/architecture.md#degraded-operation). The drill: Redis killed under steady alert load: no alert
// lost, the API answers throughout, and every job of the outage (here: each incident's chat channel) runs
// within 30 s of Redis coming back, plus whatever Slack's own limit on channel creation adds.
import { channelsByIncident, startChat } from '../lib/chat';
import { alertsExactlyOnce, Prober } from '../lib/checks';
import { sleep, verdict } from '../lib/harness';
import { AlertSender } from '../lib/sender';
import { startFirebreak, startPostgres, startRedis, withSql } from '../lib/service';
import type { Drill } from '../lib/types';

const CATCH_UP_LIMIT_MS = 30_000;
// Slack creates about 20 channels a minute (a Tier 2 method; the fake enforces it): beyond that, the
// catch-up waits for Slack, not for us, so each further 20 channels allow one more minute.
const CHANNELS_PER_MINUTE = 20;
const slackPacingMs = (channels: number) =>
  Math.floor(Math.max(0, channels - 1) / CHANNELS_PER_MINUTE) * 60_000;

export const redisOutage: Drill<{ outageSeconds: number; ratePerSecond: number }> = {
  name: 'redis-outage',
  promise: 'Redis killed under alert load: no alert lost, API answers, outage jobs run ≤ 30 s after',
  timeoutMs: 300_000,
  async run(defer, { outageSeconds = 60, ratePerSecond = 1 }) {
    const { chat, env } = await startChat(defer);
    const [{ databaseUrl }, redis] = await Promise.all([
      startPostgres(defer),
      startRedis(defer, { appendOnly: true }),
    ]);
    const service = await startFirebreak(defer, { databaseUrl, redisUrl: redis.url }, env);
    // One incident (and channel) per alert is what this drill follows; storm mode would fold all but the
    // first ten into one storm incident (docs/api.md#storm-mode).
    const stormOff = await fetch(`${service.url}/api/v1/settings`, {
      method: 'PATCH',
      headers: { authorization: `Bearer ${service.token}`, 'content-type': 'application/json' },
      body: JSON.stringify({ storm_mode_enabled: false }),
    });
    if (!stormOff.ok) throw new Error(`turning storm mode off: ${stormOff.status}`);

    const sender = new AlertSender({ url: service.url, ratePerSecond, prefix: 'redis-outage' }).start();
    const apiProbe = new Prober(service, '/api/v1/incidents?limit=5');
    await sleep(3000);
    const killedAt = new Date();
    await redis.kill();
    await sleep(outageSeconds * 1000);
    await redis.start();
    const recoveredAt = new Date();
    await sleep(3000);
    const sent = await sender.stop();
    const apiAnswers = await apiProbe.stop();

    const outageIncidents = await withSql(databaseUrl, (sql) =>
      sql<{ number: number }[]>`
        select number from incidents where created_at >= ${killedAt} and created_at < ${recoveredAt}`.then(
        (rows) => rows.map((row) => row.number),
      ),
    );
    // Every channel of the drill counts against Slack's minute, those opened before the outage too.
    const incidents = await withSql(databaseUrl, (sql) =>
      sql<{ n: number }[]>`select count(*)::int as n from incidents`.then((rows) => rows[0]!.n),
    );
    const limitMs = CATCH_UP_LIMIT_MS + slackPacingMs(incidents);
    // Give the outage's jobs twice their limit to show up, so that a slow one is measured, not missed.
    const deadline = recoveredAt.getTime() + 2 * limitMs;
    let channels = channelsByIncident(chat);
    while (Date.now() < deadline && outageIncidents.some((n) => !channels.has(n))) {
      await sleep(500);
      channels = channelsByIncident(chat);
    }
    const lags = outageIncidents.map(
      (n) => (channels.get(n)?.[0]?.getTime() ?? Number.NaN) - recoveredAt.getTime(),
    );
    const withoutChannel = lags.filter((lag) => Number.isNaN(lag)).length;
    const slowest = Math.max(0, ...lags.filter((lag) => !Number.isNaN(lag)));
    const alerts = await alertsExactlyOnce(databaseUrl, sender.ids);
    const doubled = [...channels.values()].filter((times) => times.length > 1).length;

    return verdict(
      {
        'outage s': outageSeconds,
        'alerts sent': sent.sent,
        'webhook retries': sent.retries,
        'alerts missing': alerts.missing,
        'alerts duplicated': alerts.duplicated,
        'API answers not 200': apiProbe.failures(),
        'API answers': Object.values(apiAnswers).reduce((a, b) => a + b, 0),
        'incidents during outage': outageIncidents.length,
        'their channels missing': withoutChannel,
        'slowest catch-up ms': slowest,
        'catch-up limit ms (30 s + Slack pacing)': limitMs,
        'incidents with 2+ channels': doubled,
      },
      {
        'every alert stored exactly once':
          alerts.missing === 0 && alerts.duplicated === 0 && sent.gaveUp === 0,
        'webhooks answered 200 without retries': sent.retries === 0,
        'API answered 200 throughout': apiProbe.failures() === 0,
        'incidents were opened during the outage': outageIncidents.length > 0,
        'every outage job ran ≤ 30 s after recovery (plus Slack pacing)':
          withoutChannel === 0 && slowest <= limitMs,
        'no incident got two channels': doubled === 0,
      },
    );
  },
};
