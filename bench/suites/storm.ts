import { setTimeout as sleep } from 'node:timers/promises';
import { type FakeChatApi, startFakeChatApi } from '@firebreak/testing';
import postgres from 'postgres';
import { startEnvironment } from '../lib/environment';
import type { BenchEnvironment, Benchmark, BenchResult } from '../lib/types';

const FAILURES = 200;
const ALERTS = 10_000;
const SECONDS = 60;
const TEAMS = 5;
const SENDERS = 16;
const AM_PATH = '/api/v1/webhooks/metrics-alertmanager';

const teamUser = (team: number) => ({
  id: `U0TEAM00${team}`,
  name: `oncall-${team}`,
  realName: `On-call ${team}`,
  email: `oncall-${team}@bench.test`,
});

async function api(env: BenchEnvironment, method: string, path: string, body: unknown) {
  const res = await fetch(`${env.url}${path}`, {
    method,
    headers: { authorization: `Bearer ${env.adminToken}`, 'content-type': 'application/json' },
    body: JSON.stringify(body),
  });
  if (!res.ok) throw new Error(`${method} ${path}: ${res.status} ${await res.text()}`);
  return (await res.json()) as Record<string, unknown>;
}

/** Five teams, each with its on-call person (in the chat workspace too), policy and routing rule. */
async function setUpTeams(env: BenchEnvironment): Promise<void> {
  for (let team = 0; team < TEAMS; team++) {
    const user = teamUser(team);
    const person = await api(env, 'POST', '/api/v1/users', {
      email: user.email,
      name: user.realName,
      role: 'member',
      slack_user_id: user.id,
    });
    const policy = await api(env, 'POST', '/api/v1/escalation-policies', {
      name: `Team ${team}`,
      tiers: [{ target_type: 'users', user_ids: [person.id], timeout_seconds: 600 }],
    });
    await api(env, 'POST', '/api/v1/routing-rules', {
      name: `Team ${team}`,
      priority: 10 + team,
      match_criteria: { labels: { team: `team-${team}` } },
      actions: { create_incident: true, escalation_policy_id: policy.id },
    });
  }
}

/**
 * One Alertmanager notification for failure `i`: a group of its own (as a `group_by: [alertname,
 * instance]` route makes), so 200 failures are 200 groups, as in an outage of many services at once.
 */
function notification(i: number): string {
  const labels = {
    alertname: `ServiceDown${i % 40}`,
    instance: `host-${i}:9100`,
    team: `team-${i % TEAMS}`,
    severity: 'critical',
  };
  return JSON.stringify({
    version: '4',
    receiver: 'firebreak',
    status: 'firing',
    groupKey: `{}/{severity="critical"}:{alertname="${labels.alertname}", instance="${labels.instance}"}`,
    groupLabels: { alertname: labels.alertname, instance: labels.instance },
    commonLabels: labels,
    commonAnnotations: {},
    externalURL: 'http://alertmanager.bench.test',
    alerts: [
      {
        status: 'firing',
        labels,
        annotations: { summary: `${labels.alertname} on ${labels.instance}` },
        startsAt: new Date(Date.now() - 60_000).toISOString(),
        endsAt: '0001-01-01T00:00:00Z',
        generatorURL: 'http://prometheus.bench.test/graph',
        fingerprint: `storm-${i.toString(16).padStart(12, '0')}`,
      },
    ],
  });
}

/**
 * `ALERTS` deliveries in `SECONDS` seconds, round-robin over the failures, by `SENDERS` senders that
 * retry a 5xx or a network error as Alertmanager does. Answers when the last one was accepted and how
 * many retries it took.
 */
async function sendStorm(env: BenchEnvironment): Promise<{ startedAt: number; retries: number }> {
  const startedAt = Date.now();
  const intervalMs = (SECONDS * 1000) / ALERTS;
  let next = 0;
  let retries = 0;
  const sender = async () => {
    for (let n = next++; n < ALERTS; n = next++) {
      const dueAt = startedAt + n * intervalMs;
      await sleep(Math.max(0, dueAt - Date.now()));
      for (;;) {
        const ok = await fetch(`${env.url}${AM_PATH}`, {
          method: 'POST',
          headers: { 'content-type': 'application/json' },
          body: notification(n % FAILURES),
        })
          .then((res) => res.ok)
          .catch(() => false);
        if (ok) break;
        retries += 1;
        await sleep(100);
      }
    }
  };
  await Promise.all(Array.from({ length: SENDERS }, sender));
  return { startedAt, retries };
}

/** When each team's on-call person first received a page in their direct messages, if yet. */
function firstPages(fake: FakeChatApi): Array<number | undefined> {
  return Array.from({ length: TEAMS }, (_, team) => {
    const dm = fake.dmChannel(teamUser(team).id);
    if (!dm) return undefined;
    const posted = fake
      .callsTo('chat.postMessage')
      .filter((call) => call.response?.ok && call.args.channel === dm.id);
    return posted[0]?.time.getTime();
  });
}

/**
 * An alert storm against the chat fake with Slack's real limits (20 channel creations a minute):
 * 10 000 Alertmanager deliveries in 60 s from 200 distinct failures of five teams, with the defaults
 * (sender groups, storm mode on). Reports how long until every team's on-call was paged, how many
 * incidents and channels it made, and that nothing was lost: every failure stored once and linked to
 * an incident. In an environment of its own, with chat on.
 */
export const storm: Benchmark = {
  name: 'alert storm',
  async run(): Promise<BenchResult[]> {
    const fake = await startFakeChatApi({
      latencyMs: 25,
      users: Array.from({ length: TEAMS }, (_, team) => teamUser(team)),
    });
    const env = await startEnvironment({ env: { CHAT_BOT_TOKEN: fake.botToken, CHAT_API_URL: fake.url } });
    const sql = postgres(env.databaseUrl, { max: 1, onnotice: () => {} });
    try {
      await setUpTeams(env);
      const { startedAt, retries } = await sendStorm(env);
      const sentSeconds = (Date.now() - startedAt) / 1000;
      const deadline = Date.now() + 120_000;
      let pages = firstPages(fake);
      while (pages.some((at) => at === undefined) && Date.now() < deadline) {
        await sleep(250);
        pages = firstPages(fake);
      }
      const [stored] = await sql<{ alerts: number; linked: number; incidents: number; storms: number }[]>`
        select (select count(*)::int from alerts) as alerts,
               (select count(*)::int from alerts where incident_id is not null) as linked,
               (select count(*)::int from incidents) as incidents,
               (select count(*)::int from incidents where storm_started_at is not null) as storms`;
      // Every incident's channel, however long Slack's pacing makes it take.
      while (fake.channels().length < stored!.incidents && Date.now() < deadline) await sleep(250);
      const paged = pages.filter((at): at is number => at !== undefined);
      const lastPage = paged.length === TEAMS ? Math.max(...paged) - startedAt : Number.NaN;
      return [
        {
          name: `storm: ${ALERTS} deliveries from ${FAILURES} failures, sent in`,
          value: sentSeconds,
          unit: 's',
        },
        { name: '  senders retried (5xx or no answer)', value: retries, unit: 'requests' },
        {
          name: `  every on-call of ${TEAMS} teams paged, after the first alert`,
          value: lastPage,
          unit: 'ms',
          target: { op: '<=', value: 60_000 },
        },
        { name: '  incidents opened (storm incident included)', value: stored!.incidents, unit: 'incidents' },
        { name: '  storm incidents', value: stored!.storms, unit: 'incidents' },
        { name: '  chat channels created', value: fake.channels().length, unit: 'channels' },
        {
          name: '  chat 429s answered (conversations.create)',
          value: fake.rateLimitedCount('conversations.create'),
          unit: 'answers',
        },
        {
          name: '  failures stored and linked to an incident',
          value: Math.min(stored!.alerts, stored!.linked),
          unit: 'alerts',
          target: { op: '>=', value: FAILURES },
        },
      ];
    } finally {
      await sql.end();
      await env.stop();
      await fake.close();
    }
  },
};
