import { startTestApp, type TestRuntime, type TestUser } from '@firebreak/runtime/testing';
import { bodyOf, type TestClient } from '@firebreak/testing';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createApp } from './app';

let runtime: TestRuntime;
let api: TestClient;
let viewer: TestUser;

beforeAll(async () => {
  ({
    runtime,
    api,
    users: { viewer },
  } = await startTestApp(createApp, { users: { viewer: 'viewer' } }));
  // 1 200 incidents straight into the table: severity cycles, every third is acknowledged.
  await runtime.sql`
    insert into incidents (title, severity, status, source, acknowledged_at, created_at)
    select 'Incident ' || g,
           (array['critical','high','medium','low'])[1 + g % 4],
           case when g % 3 = 0 then 'acknowledged' else 'triggered' end,
           'manual',
           case when g % 3 = 0 then now() end,
           now() - (1200 - g) * interval '1 minute'
    from generate_series(1, 1200) g`;
});
afterAll(() => runtime.cleanup());

const list = async (query: string) => {
  const res = await api('GET', `/api/v1/incidents${query}`, { token: viewer.token });
  return { status: res.status, body: await bodyOf(res) };
};

describe('GET /api/v1/incidents', () => {
  it('returns 50 by default, newest first, with a cursor', async () => {
    const { status, body } = await list('');
    expect(status).toBe(200);
    expect(body.incidents).toHaveLength(50);
    expect(body.incidents[0].title).toBe('Incident 1200');
    const numbers = body.incidents.map((i: { number: number }) => i.number);
    expect([...numbers].sort((a, b) => b - a)).toEqual(numbers);
    expect(typeof body.next_cursor).toBe('string');
  });

  it('pages through everything with cursors, without gaps or repeats', async () => {
    const seen: number[] = [];
    let cursor: string | null = null;
    let pages = 0;
    do {
      const { body } = await list(`?limit=500${cursor ? `&cursor=${cursor}` : ''}`);
      seen.push(...body.incidents.map((i: { number: number }) => i.number));
      cursor = body.next_cursor;
      pages += 1;
    } while (cursor);
    expect(pages).toBe(3);
    expect(seen).toHaveLength(1200);
    expect(new Set(seen).size).toBe(1200);
  });

  it('filters by status and severity, also together', async () => {
    const acked = (await list('?status=acknowledged&limit=1000')).body.incidents;
    expect(acked).toHaveLength(400);
    expect(acked.every((i: { status: string }) => i.status === 'acknowledged')).toBe(true);
    const critical = (await list('?severity=critical&limit=1000')).body.incidents;
    expect(critical).toHaveLength(300);
    const both = (await list('?status=triggered&severity=low&limit=1000')).body.incidents;
    expect(
      both.every(
        (i: { status: string; severity: string }) => i.status === 'triggered' && i.severity === 'low',
      ),
    ).toBe(true);
    expect(both).toHaveLength(200);
  });

  it('accepts limit 1 to 1000 and refuses anything else', async () => {
    expect((await list('?limit=1')).body.incidents).toHaveLength(1);
    expect((await list('?limit=1000')).body.incidents).toHaveLength(1000);
    for (const limit of ['0', '1001', '-5', 'ten', '2.5']) {
      const { status, body } = await list(`?limit=${limit}`);
      expect(status).toBe(400);
      expect(body.error.details[0].path).toBe('limit');
    }
  });

  it('refuses unknown filter values and forged cursors', async () => {
    expect((await list('?status=open')).status).toBe(400);
    expect((await list('?severity=sev1')).status).toBe(400);
    const forged = await list('?cursor=not-a-cursor');
    expect(forged.status).toBe(400);
    expect(forged.body.error.details).toEqual([
      { path: 'cursor', message: 'is not a cursor this API returned' },
    ]);
  });

  it('needs a token', async () => {
    expect((await api('GET', '/api/v1/incidents')).status).toBe(401);
  });
});
