import { setTimeout as sleep } from 'node:timers/promises';
import { type FakeChatApi, startFakeChatApi } from '@firebreak/testing';
import { startEnvironment } from '../lib/environment';
import type { Benchmark, BenchResult } from '../lib/types';

const INCIDENTS = 300;
// Incidents arrive in small bursts, 30 a second: a busy alert storm, not a synthetic flood.
const BURST = 6;
const BURST_EVERY_MS = 200;
// Each Web API call takes this long at the fake, a little like a nearby chat service.
const CHAT_LATENCY_MS = 25;

function percentile(sorted: number[], p: number): number {
  return sorted[Math.min(sorted.length - 1, Math.ceil((p / 100) * sorted.length) - 1)] ?? Number.NaN;
}

/**
 * Opens `INCIDENTS` incidents through the API of the server at `url`, in bursts, and answers how long
 * each took from its creation (`created_at`, its transaction) to the moment `fake` created its
 * channel `inc-<number>-…` (after the fake's simulated latency), sorted.
 */
export async function channelLatencies(
  url: string,
  adminToken: string,
  fake: FakeChatApi,
): Promise<number[]> {
  const created = new Map<number, number>();
  for (let i = 0; i < INCIDENTS; i += BURST) {
    const started = Date.now();
    const burst = await Promise.all(
      Array.from({ length: Math.min(BURST, INCIDENTS - i) }, async (_, j) => {
        const res = await fetch(`${url}/api/v1/incidents`, {
          method: 'POST',
          headers: { authorization: `Bearer ${adminToken}`, 'content-type': 'application/json' },
          body: JSON.stringify({ title: `Bench chat ${i + j}`, severity: 'high' }),
        });
        if (!res.ok) throw new Error(`POST /api/v1/incidents: ${res.status} ${await res.text()}`);
        return (await res.json()) as { number: number; created_at: string };
      }),
    );
    for (const incident of burst) created.set(incident.number, Date.parse(incident.created_at));
    await sleep(Math.max(0, BURST_EVERY_MS - (Date.now() - started)));
  }
  const channelAt = new Map<number, number>();
  const deadline = Date.now() + 60_000;
  while (channelAt.size < created.size && Date.now() < deadline) {
    for (const call of fake.callsTo('conversations.create')) {
      const number = Number(/^inc-(\d+)-/.exec(String(call.args.name))?.[1]);
      if (call.response?.ok && created.has(number)) channelAt.set(number, call.time.getTime());
    }
    await sleep(200);
  }
  if (channelAt.size < created.size) {
    throw new Error(`only ${channelAt.size} of ${created.size} channels were created`);
  }
  return [...created].map(([number, at]) => channelAt.get(number)! - at).sort((a, b) => a - b);
}

/**
 * Incident created → channel created (the channel should appear within 10 s,
 * docs/chat.md#what-the-channel-sees; our target p99 ≤ 2 s while chat is healthy). The production bundle
 * runs with its chat integration pointed at the fake chat API, in an environment of its own, so that
 * channel creation does not load the other suites' measurements.
 */
export const chatLatency: Benchmark = {
  name: 'chat channel latency',
  async run(): Promise<BenchResult[]> {
    const fake = await startFakeChatApi({
      latencyMs: CHAT_LATENCY_MS,
      tierLimitsOffBecause:
        "this measures Firebreak's own delay from commit to channel; Slack's pacing of channel creation (20 a minute) is what the storm suite measures",
    });
    const env = await startEnvironment({ env: { CHAT_BOT_TOKEN: fake.botToken, CHAT_API_URL: fake.url } });
    try {
      const latencies = await channelLatencies(env.url, env.adminToken, fake);
      const label = `incident created → channel created (${INCIDENTS} incidents, fake chat ${CHAT_LATENCY_MS} ms/call)`;
      return [
        { name: `${label}, p50`, value: percentile(latencies, 50), unit: 'ms' },
        {
          name: `${label}, p99`,
          value: percentile(latencies, 99),
          unit: 'ms',
          target: { op: '<=', value: 2000 },
        },
        { name: `${label}, max`, value: latencies.at(-1)!, unit: 'ms' },
      ];
    } finally {
      await env.stop();
      await fake.close();
    }
  },
};
