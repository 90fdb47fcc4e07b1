import postgres from 'postgres';
import { load } from '../lib/load';
import type { Benchmark } from '../lib/types';

const INCIDENTS = 100_000;

/**
 * `GET /api/v1/incidents?limit=500` over 100 000 incidents, the call of the bulk-resolution script
 * (README.md#bulk-resolution), and the same filtered by status. Incidents are seeded straight into the
 * table (with timeline rows, and a commander on some), then read through the HTTP API with a viewer's
 * token.
 */
export const incidentList: Benchmark = {
  name: 'incident list',
  async run(env) {
    const sql = postgres(env.databaseUrl, { max: 1, onnotice: () => {} });
    try {
      await sql`
        insert into incidents (title, severity, status, source, commander_id, created_at, acknowledged_at)
        select 'Bench incident ' || g,
               (array['critical','high','medium','low'])[1 + g % 4],
               case when g % 5 = 0 then 'acknowledged' else 'triggered' end,
               'alert',
               case when g % 7 = 0 then (select id from users limit 1) end,
               now() - (${INCIDENTS} - g) * interval '1 second',
               case when g % 5 = 0 then now() end
        from generate_series(1, ${INCIDENTS}) g`;
      await sql`analyze incidents`;
    } finally {
      await sql.end();
    }
    const headers = { authorization: `Bearer ${env.adminToken}` };
    const all = await load({
      url: `${env.url}/api/v1/incidents?limit=500`,
      headers,
      connections: 4,
      durationSeconds: 10,
    });
    const triggered = await load({
      url: `${env.url}/api/v1/incidents?status=triggered&limit=500`,
      headers,
      connections: 4,
      durationSeconds: 10,
    });
    for (const run of [all, triggered]) {
      if (run.non2xx > 0 || run.errors + run.timeouts > 0)
        throw new Error(`list failed ${run.non2xx + run.errors + run.timeouts} times`);
    }
    return [
      { name: 'list limit=500 over 100k, p50 (c=4)', value: all.p50Ms, unit: 'ms' },
      {
        name: 'list limit=500 over 100k, p99 (c=4)',
        value: all.p99Ms,
        unit: 'ms',
        target: { op: '<=', value: 100 },
      },
      {
        name: 'list status=triggered limit=500, p99 (c=4)',
        value: triggered.p99Ms,
        unit: 'ms',
        target: { op: '<=', value: 100 },
      },
      { name: 'list limit=500 throughput (c=4)', value: all.requestsPerSecond, unit: 'req/s' },
    ];
  },
};
