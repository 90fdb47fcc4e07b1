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

const sorted = (values: number[]) => [...values].sort((a, b) => a - b);

/**
 * Each step of the run, measured three ways: `skew_ms`, fired (the instant the step was decided,
 * `fired_at`) minus due; `due_to_commit_ms`, due until the step's transaction committed; and, for tier
 * 1, `from_commit_ms`: from the commit of the incident's opening (its `incident_created` entry) to the
 * commit of the step, so the opening's own work before its commit is not counted. Commit instants come
 * from `track_commit_timestamp`, which the bench's PostgreSQL turns on.
 */
async function measuredSteps(sql: postgres.Sql, ids: string[]) {
  const rows = await sql<
    { tier: number; skew_ms: number; due_to_commit_ms: number; from_commit_ms: number }[]
  >`
    select s.tier,
      extract(epoch from (s.fired_at - s.due_at)) * 1000 as skew_ms,
      extract(epoch from (pg_xact_commit_timestamp(s.xmin) - s.due_at)) * 1000 as due_to_commit_ms,
      extract(epoch from (pg_xact_commit_timestamp(s.xmin) - pg_xact_commit_timestamp(t.xmin))) * 1000
        as from_commit_ms
    from escalation_steps s
    join timeline_entries t on t.incident_id = s.incident_id and t.type = 'incident_created'
    where s.incident_id = any(${ids})`;
  return rows.map((r) => ({
    tier: r.tier,
    skew_ms: Number(r.skew_ms),
    due_to_commit_ms: Number(r.due_to_commit_ms),
    from_commit_ms: Number(r.from_commit_ms),
  }));
}

function percentile(sorted: number[], p: number): number {
  return sorted[Math.min(sorted.length - 1, Math.ceil((p / 100) * sorted.length) - 1)] ?? Number.NaN;
}

/**
 * Escalation timer skew over 1 000 concurrent escalations (docs/architecture.md#timers-are-rows). A
 * two-tier policy (tier timeout 5 s) is the default; 1 000 incidents are opened through the API at once;
 * every tier-2 step is due 5 s after its tier 1 fired. Skew = when the step fired (claimed, timeline
 * entry and chat notice written) minus when it was due, read from `escalation_steps`. Tier 1 is due at
 * the opening: from the opening's commit to the step's commit.
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
      let fired = 0;
      while (Date.now() < deadline) {
        const [row] = await sql<{ n: number }[]>`
          select count(*)::int as n from escalation_steps where incident_id = any(${ids}) and tier = 1`;
        fired = row!.n;
        if (fired === INCIDENTS) break;
        await new Promise((resolve) => setTimeout(resolve, 500));
      }
      if (fired !== INCIDENTS) throw new Error(`only ${fired} of ${INCIDENTS} tier-2 steps fired`);
      const steps = await measuredSteps(sql, ids);
      const timer = sorted(steps.filter((r) => r.tier === 1).map((r) => r.skew_ms));
      const first = sorted(steps.filter((r) => r.tier === 0).map((r) => r.from_commit_ms));
      const firstSkew = sorted(steps.filter((r) => r.tier === 0).map((r) => r.skew_ms));
      const committed = sorted(steps.filter((r) => r.tier === 1).map((r) => r.due_to_commit_ms));
      return [
        { name: 'tier 1 at creation: commit → notified, p50', value: percentile(first, 50), unit: 'ms' },
        {
          name: 'tier 1 at creation: commit → notified, p99',
          value: percentile(first, 99),
          unit: 'ms',
          target: { op: '<=', value: 1000 },
        },
        // Counts the opening's own transaction too (tier 1 is due when the opening began).
        {
          name: 'tier 1 at creation: opening began → fired, p99',
          value: percentile(firstSkew, 99),
          unit: 'ms',
        },
        { name: 'timer skew over 1 000 escalations, p50', value: percentile(timer, 50), unit: 'ms' },
        {
          name: 'timer skew over 1 000 escalations, p99',
          value: percentile(timer, 99),
          unit: 'ms',
          target: { op: '<=', value: 1000 },
        },
        { name: 'timer skew over 1 000 escalations, max', value: timer.at(-1)!, unit: 'ms' },
        { name: 'tier 2: due → step committed, p99', value: percentile(committed, 99), unit: 'ms' },
      ];
    } finally {
      await sql.end();
    }
  },
};
