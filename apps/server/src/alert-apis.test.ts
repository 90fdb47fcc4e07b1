// PagerDuty's and Opsgenie's alert APIs on the embedded server (`pnpm start`), where they share one router
// with the API (docs/integrations/pagerduty-opsgenie-apis.md): they are intake, not API — never rate
// limited, 1 MiB bodies, no CSRF check, 503 (never 429) when the intake gate is full, and the same
// fail-fast while the database is down.
import { startTestApp, type TestApp } from '@firebreak/runtime/testing';
import { bodyOf, type JsonBody, waitFor } from '@firebreak/testing';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createServerApp } from './app';

let t: TestApp<ReturnType<typeof createServerApp>, 'admin'>;
let pagerduty: JsonBody;
let opsgenie: JsonBody;

beforeAll(async () => {
  // A tiny API budget. The app sizes its intake gate as for one pooled connection (4 requests in
  // flight) over a real pool of 10, so that requests held inside the gate leave connections for the
  // next request's key lookup, which comes before the gate: the overload test fills the gate on purpose.
  t = await startTestApp(
    (deps) => createServerApp({ ...deps, config: { ...deps.config, dbMaxOpenConns: 1 } }),
    {
      env: { RATE_LIMIT_REQUESTS_PER_MINUTE: '3', DB_MAX_OPEN_CONNS: '10' },
      users: { admin: 'admin' },
    },
  );
  const create = async (type: string) => {
    const res = await t.api('POST', '/api/v1/integrations', {
      token: t.users.admin.token,
      body: { name: `${type} sender`, type },
    });
    expect(res.status).toBe(201);
    return bodyOf(res);
  };
  pagerduty = await create('pagerduty');
  opsgenie = await create('opsgenie');
});
afterAll(() => t?.runtime.cleanup());

let seq = 0;
const pdEvent = (extra: Record<string, unknown> = {}) => ({
  routing_key: pagerduty.key,
  event_action: 'trigger',
  dedup_key: `server-${++seq}`,
  payload: { summary: 'Queue depth high', source: 'worker-1', severity: 'warning', ...extra },
});
const post = (path: string, body: unknown, headers: Record<string, string> = {}) =>
  Promise.resolve(
    t.app.request(path, {
      method: 'POST',
      headers: { 'content-type': 'application/json', ...headers },
      body: JSON.stringify(body),
    }),
  );

describe('the alert APIs on the embedded server', () => {
  it('are never rate limited, while the API is', async () => {
    const statuses: number[] = [];
    for (let i = 0; i < 12; i++) {
      statuses.push((await post('/v2/enqueue', pdEvent())).status);
      statuses.push(
        (await post('/v2/alerts', { message: `m${i}` }, { authorization: `GenieKey ${opsgenie.key}` }))
          .status,
      );
    }
    expect(new Set(statuses)).toEqual(new Set([202]));
    const api: number[] = [];
    for (let i = 0; i < 6; i++) api.push((await t.api('GET', '/api/v1/openapi.json', {})).status);
    expect(api, 'the API budget of 3 a minute is spent').toContain(429);
  });

  it('answer overload with 503 and Retry-After, never 429', async () => {
    // Recording an alert first takes a share lock on its integration's row: while the test holds that
    // row for update, four triggers wait inside the gate (4 in flight) and fill it — those whose
    // transaction started wait on the lock, the others for their company's transaction
    // (docs/decisions.md#intake-in-company).
    const { sql } = t.runtime;
    const insideGate = async () => {
      const [row] = await sql<{ waiting: number }[]>`
        select count(*)::int as waiting from pg_stat_activity
        where datname = current_database() and wait_event_type = 'Lock'`;
      const inCompany = (await t.runtime.ctx.metrics.intakeWaiting.get()).values[0]?.value ?? 0;
      return (row?.waiting ?? 0) + inCompany;
    };
    /** The answer, or `'let in'` should the request wait inside the gate instead (the gate was not full). */
    const refusedOrLetIn = (request: Promise<Response>) => {
      let answer: Response | undefined;
      void request.then((res) => {
        answer = res;
      });
      return waitFor(async () => answer ?? ((await insideGate()) > 4 ? ('let in' as const) : undefined), {
        what: 'an answer',
      });
    };
    let release = () => {};
    const released = new Promise<void>((resolve) => {
      release = resolve;
    });
    let locked = () => {};
    const lockTaken = new Promise<void>((resolve) => {
      locked = resolve;
    });
    const lock = sql.begin(async (tx) => {
      await tx`select id from integrations where id = ${pagerduty.id} for update`;
      locked();
      await released;
    });
    await Promise.race([lockTaken, lock]);
    try {
      const held = Array.from({ length: 4 }, () => post('/v2/enqueue', pdEvent()));
      await waitFor(async () => (await insideGate()) === 4, {
        what: 'four triggers waiting inside the intake gate',
      });
      // The gate is full: every intake path answers 503 at once, which senders retry; never 429.
      const refused = [
        await refusedOrLetIn(post('/v2/enqueue', pdEvent())),
        await refusedOrLetIn(
          post('/v2/alerts', { message: 'full' }, { authorization: `GenieKey ${opsgenie.key}` }),
        ),
      ];
      for (const res of refused) {
        expect(res, 'the gate lets no fifth request in').not.toBe('let in');
        if (res === 'let in') continue;
        expect(res.status).toBe(503);
        expect(res.headers.get('retry-after')).toBe('1');
      }
      release();
      await lock;
      expect((await Promise.all(held)).map((res) => res.status)).toEqual([202, 202, 202, 202]);
      // With the gate free again, the next event is taken.
      expect((await post('/v2/enqueue', pdEvent())).status).toBe(202);
    } finally {
      release();
      await lock;
    }
  });

  it('take bodies over the API’s 256 KiB, and no CSRF check applies to a cookie and a form type', async () => {
    const big = await post('/v2/enqueue', pdEvent({ custom_details: { blob: 'x'.repeat(400 * 1024) } }));
    expect(big.status).toBe(202);
    const formLike = await t.app.request('/v2/enqueue', {
      method: 'POST',
      headers: {
        'content-type': 'text/plain',
        cookie: `firebreak_session=${t.users.admin.token}`,
        origin: 'https://evil.example.com',
      },
      body: JSON.stringify(pdEvent()),
    });
    expect(formLike.status).toBe(202);
  });

  it('fail fast with 500 database_unavailable while the database is known to be down', async () => {
    const { failures } = t.runtime.ctx;
    failures.failed('database', {
      reason: 'connection_refused',
      line: 'database: connection refused (test)',
    });
    try {
      const res = await post('/v2/enqueue', pdEvent());
      expect(res.status).toBe(500);
      expect(await bodyOf(res)).toMatchObject({ error: { code: 'database_unavailable' } });
      const og = await post('/v2/alerts', { message: 'down' }, { authorization: `GenieKey ${opsgenie.key}` });
      expect(og.status).toBe(500);
    } finally {
      failures.recovered('database');
    }
  });
});
