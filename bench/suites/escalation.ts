import postgres from 'postgres';
import type { BenchEnvironment, Benchmark } from '../lib/types';

const INCIDENTS = 1000;
const TIMEOUT_SECONDS = 5;

async function api(env: BenchEnvironment, method: string, path: string, body?: unknown) {
  const res = await fetch(`${env.url}${path}`, {
    method,
    headers: { authorization: `Bearer ${env.adminToken}`, 'content-type': 'application/json' },
    body: body === undefined ? undefined : JSON.stringify(body),
  });
  if (!res.ok) throw new Error(`${method} ${path}: ${res.status} ${await res.text()}`);
  return res.json() as Promise<Record<string, unknown>>;
}

function percentile(sorted: number[], p: number): number {
  return sorted[Math.min(sorted.length - 1, Math.ceil((p / 100) * sorted.length) - 1)] ?? Number.NaN;
}

/**
 * Escalation timer skew over 1 000 concurrent escalations (docs/architecture.md#timers-are-rows). A
 * two-tier policy (tier timeout 5 s) is the default; 1 000 incidents are opened through the API at once;
 * every tier-2 step is due 5 s after its tier 1 fired. Skew = when the step fired (claimed, timeline
 * entry and chat notice written) minus when it was due, read from `escalation_steps`.
 */
export const escalationSkew: Benchmark = {
  name: 'escalation timers',
  async run(env) {
    const stamp = Date.now();
    const people = await Promise.all(
      ['first', 'second'].map((who) =>
        api(env, 'POST', '/api/v1/users', {
          email: `${who}-${stamp}@bench.test`,
          name: `Bench ${who}`,
          role: 'member',
        }),
      ),
    );
    const policy = await api(env, 'POST', '/api/v1/escalation-policies', {
      name: `Bench ${stamp}`,
      tiers: people.map((p) => ({
        target_type: 'users',
        user_ids: [p.id],
        timeout_seconds: TIMEOUT_SECONDS,
      })),
    });
    await api(env, 'PATCH', '/api/v1/settings', { default_escalation_policy_id: policy.id });

    const ids: string[] = [];
    for (let i = 0; i < INCIDENTS; i += 50) {
      const batch = await Promise.all(
        Array.from({ length: Math.min(50, INCIDENTS - i) }, (_, j) =>
          api(env, 'POST', '/api/v1/incidents', { title: `Bench escalation ${i + j}`, severity: 'high' }),
        ),
      );
      ids.push(...batch.map((incident) => String(incident.id)));
    }
    const sql = postgres(env.databaseUrl, { max: 1, onnotice: () => {} });
    try {
      const deadline = Date.now() + 60_000;
      let rows: Array<{ tier: number; skew_ms: number }> = [];
      while (Date.now() < deadline) {
        rows = await sql<{ tier: number; skew_ms: number }[]>`
          select tier, extract(epoch from (fired_at - due_at)) * 1000 as skew_ms
          from escalation_steps where incident_id = any(${ids})`;
        if (rows.filter((r) => r.tier === 1).length === INCIDENTS) break;
        await new Promise((resolve) => setTimeout(resolve, 500));
      }
      const timer = rows
        .filter((r) => r.tier === 1)
        .map((r) => Number(r.skew_ms))
        .sort((a, b) => a - b);
      const first = rows
        .filter((r) => r.tier === 0)
        .map((r) => Number(r.skew_ms))
        .sort((a, b) => a - b);
      if (timer.length !== INCIDENTS)
        throw new Error(`only ${timer.length} of ${INCIDENTS} tier-2 steps fired`);
      return [
        { name: 'tier 1 at creation: commit → notified, p99', value: percentile(first, 99), unit: 'ms' },
        { name: 'timer skew over 1 000 escalations, p50', value: percentile(timer, 50), unit: 'ms' },
        {
          name: 'timer skew over 1 000 escalations, p99',
          value: percentile(timer, 99),
          unit: 'ms',
          target: { op: '<=', value: 1000 },
        },
        { name: 'timer skew over 1 000 escalations, max', value: timer.at(-1)!, unit: 'ms' },
      ];
    } finally {
      await sql.end();
    }
  },
};
