// `pnpm start` with HTTP_PROCESSES=2, end to end: the requests are spread over two processes, the
// background work still happens once, and SIGTERM answers every request it accepted before exiting 0.
import { mkdtempSync, readdirSync, readFileSync, rmSync } from 'node:fs';
import { Agent, request } from 'node:http';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import {
  createTestDatabase,
  DEFAULT_CHAT_USERS,
  type FakeChatApi,
  getFreePort,
  PrivateRedis,
  type RunningProcess,
  startFakeChatApi,
  startProcess,
  type TestDatabase,
  waitFor,
} from '@firebreak/testing';
import postgres from 'postgres';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';

const repoRoot = resolve(import.meta.dirname, '../../../..');
const ADMIN = { email: 'cluster@example.test', password: 'cluster-password-123' };
const PAGED = DEFAULT_CHAT_USERS[0]!;

let db: TestDatabase;
let redis: PrivateRedis;
let chat: FakeChatApi;
let server: RunningProcess;
let url: string;
let token: string;
const dataDir = mkdtempSync(join(tmpdir(), 'firebreak-cluster-'));

beforeAll(async () => {
  [db, redis, chat] = await Promise.all([createTestDatabase(), PrivateRedis.start(), startFakeChatApi()]);
  const port = await getFreePort();
  // `node --import tsx` as the drills run it, so that SIGTERM reaches the primary itself.
  server = startProcess('node', ['--import', 'tsx', 'apps/server/src/main.ts'], {
    cwd: repoRoot,
    env: {
      ...process.env,
      HTTP_PROCESSES: '2',
      PORT: String(port),
      DATABASE_URL: db.url,
      REDIS_URL: redis.url,
      DATA_DIR: dataDir,
      LOG_LEVEL: 'info',
      BOOTSTRAP_ADMIN_EMAIL: ADMIN.email,
      BOOTSTRAP_ADMIN_PASSWORD: ADMIN.password,
      CHAT_BOT_TOKEN: chat.botToken,
      CHAT_API_URL: chat.url,
      CHAT_SIGNING_SECRET: 'cluster-signing-secret',
    },
  });
  await server.waitForOutput('Firebreak is running at', 90_000);
  url = `http://127.0.0.1:${port}`;
  token = (await call('POST', '/api/v1/auth/login', ADMIN)).token as string;
}, 120_000);

afterAll(async () => {
  await server?.stop('SIGKILL');
  await Promise.all([chat?.close(), redis?.destroy()]);
  await db?.drop();
  rmSync(dataDir, { recursive: true, force: true });
});

async function call(method: string, path: string, body?: unknown): Promise<Record<string, unknown>> {
  const res = await fetch(`${url}${path}`, {
    method,
    headers: { 'content-type': 'application/json', ...(token ? { authorization: `Bearer ${token}` } : {}) },
    body: body === undefined ? undefined : JSON.stringify(body),
  });
  if (!res.ok) throw new Error(`${method} ${path}: ${res.status} ${await res.text()}`);
  return (await res.json()) as Record<string, unknown>;
}

type Outcome =
  | { kind: 'answered'; status: number }
  | { kind: 'refused' }
  | { kind: 'cut off'; error: string };

/** One request, on a connection of its own unless an agent keeps one alive. */
function send(
  method: string,
  path: string,
  body?: string,
  agent: Agent | false = false,
  onSocket?: (socket: unknown) => void,
): Promise<Outcome> {
  return new Promise((done) => {
    const req = request(
      `${url}${path}`,
      { method, agent, headers: { 'content-type': 'application/json' } },
      (res) => {
        res.resume();
        res.on('end', () => done({ kind: 'answered', status: res.statusCode ?? 0 }));
        res.on('error', (error) => done({ kind: 'cut off', error: error.message }));
      },
    );
    if (onSocket) req.on('socket', onSocket);
    // A request nobody answers (a connection handed to a process that has gone) fails the test by name.
    req.setTimeout(10_000, () => req.destroy(new Error('no answer within 10 s')));
    req.on('error', (error: NodeJS.ErrnoException) =>
      done(error.code === 'ECONNREFUSED' ? { kind: 'refused' } : { kind: 'cut off', error: error.message }),
    );
    req.end(body);
  });
}

function isAlive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch {
    return false;
  }
}

/** The node processes the primary forked (tsx's esbuild service is a child too, and not one of them). */
function httpProcessPids(): number[] {
  const pid = server.child.pid!;
  const children = readdirSync(`/proc/${pid}/task`).flatMap((task) =>
    readFileSync(`/proc/${pid}/task/${task}/children`, 'utf8').split(' ').filter(Boolean).map(Number),
  );
  return children.filter((child) => readFileSync(`/proc/${child}/cmdline`, 'utf8').includes('main.ts'));
}

describe('pnpm start with HTTP_PROCESSES=2', () => {
  it('hands connections opened at once to both processes in turn, and one scrape of /metrics counts them', async () => {
    expect(httpProcessPids()).toHaveLength(2);
    const answeredBy = async () => {
      const metrics = await (await fetch(`${url}/metrics`)).text();
      const counts = metrics.matchAll(/^firebreak_http_requests_by_process_total\{process="(\d)"\} (\d+)$/gm);
      return { metrics, counts: new Map([...counts].map((m) => [m[1]!, Number(m[2])])) };
    };
    const before = (await answeredBy()).counts;
    // A burst of keep-alive connections, as a load generator or a proxy filling its pool opens them: each
    // sends 25 requests on its own connection. The primary hands the connections out in turn, so each
    // process serves exactly half, where processes accepting from a shared socket could take them all.
    const CONNECTIONS = 32;
    const REQUESTS = 25;
    const agents = Array.from({ length: CONNECTIONS }, () => new Agent({ keepAlive: true, maxSockets: 1 }));
    const sockets = new Set<unknown>();
    await Promise.all(
      agents.map(async (agent) => {
        for (let i = 0; i < REQUESTS; i++) {
          const outcome = await send('GET', '/health', undefined, agent, (socket) => sockets.add(socket));
          expect(outcome).toEqual({ kind: 'answered', status: 200 });
        }
      }),
    );
    for (const agent of agents) agent.destroy();
    expect(sockets.size).toBe(CONNECTIONS); // one connection each, kept alive
    const { metrics, counts } = await answeredBy();
    // Plus the first scrape, counted once answered (a scrape does not count itself).
    const served = ['1', '2'].map((slot) => (counts.get(slot) ?? 0) - (before.get(slot) ?? 0));
    const half = (CONNECTIONS / 2) * REQUESTS;
    expect(served.reduce((sum, n) => sum + n, 0)).toBe(CONNECTIONS * REQUESTS + 1);
    for (const n of served) expect([half, half + 1]).toContain(n);
    // The primary's metrics are in the same scrape: its worker reads the queue depths.
    expect(metrics).toMatch(/^firebreak_queue_jobs\{/m);
  });

  it('says ready only once the primary has prepared the database', async () => {
    const ready = await Promise.all(Array.from({ length: 4 }, () => fetch(`${url}/ready`)));
    expect(ready.map((res) => res.status)).toEqual([200, 200, 200, 200]);
  });

  it('pages and opens the channel of an incident once, whichever process took it', async () => {
    const person = await call('POST', '/api/v1/users', {
      email: PAGED.email,
      name: PAGED.realName,
      role: 'member',
      slack_user_id: PAGED.id,
    });
    const policy = await call('POST', '/api/v1/escalation-policies', {
      name: 'Cluster: one tier',
      tiers: [{ target_type: 'users', user_ids: [person.id], timeout_seconds: 600 }],
    });
    await call('PATCH', '/api/v1/settings', { default_escalation_policy_id: policy.id });
    const incident = await call('POST', '/api/v1/incidents', {
      title: 'Cluster page once',
      severity: 'high',
    });

    await waitFor(() => chat.dms(PAGED.id).length > 0 && chat.callsTo('conversations.create').length > 0, {
      timeoutMs: 30_000,
      what: 'the page and the channel',
    });
    await new Promise((done) => setTimeout(done, 3000)); // a doubled page would have come by now
    const sql = postgres(db.url, { max: 1, onnotice: () => {} });
    try {
      const steps = await sql`select 1 from escalation_steps where incident_id = ${String(incident.id)}`;
      expect(steps).toHaveLength(1);
    } finally {
      await sql.end();
    }
    expect(chat.dms(PAGED.id)).toHaveLength(1);
    expect(chat.callsTo('conversations.create').filter((c) => c.response?.ok)).toHaveLength(1);
  }, 60_000);

  it('replaces an HTTP process that dies, saying so once', async () => {
    const [victim, survivor] = httpProcessPids() as [number, number];
    process.kill(victim, 'SIGKILL');
    await waitFor(
      () => (server.output().match(/"msg":"HTTP process taking connections"/g) ?? []).length === 3,
      {
        timeoutMs: 60_000,
        what: 'a replacement HTTP process',
      },
    );
    expect(httpProcessPids()).toHaveLength(2);
    expect(httpProcessPids()).not.toContain(victim);
    expect(httpProcessPids()).toContain(survivor);
    const lines = server
      .output()
      .match(new RegExp(`HTTP process \\d \\(pid ${victim}\\) exited \\(SIGKILL\\)`, 'g'));
    expect(lines).toHaveLength(1);
  }, 60_000);

  it('drains an HTTP process that SIGTERM reaches alone: the primary stops handing it connections first', async () => {
    const [victim] = httpProcessPids() as [number, number];
    const outcomes: Outcome[] = [];
    let stop = false;
    // Keep-alive senders, half of whose connections the victim holds: its answers end them
    // (`Connection: close`), and each sender's next connection must go to a process that serves it.
    const senders = Array.from({ length: 8 }, async () => {
      const agent = new Agent({ keepAlive: true, maxSockets: 1 });
      while (!stop) outcomes.push(await send('GET', '/health', undefined, agent));
      agent.destroy();
    });
    await new Promise((done) => setTimeout(done, 500));
    process.kill(victim, 'SIGTERM');
    await waitFor(() => !isAlive(victim), { timeoutMs: 20_000, what: 'the HTTP process to drain and exit' });
    await new Promise((done) => setTimeout(done, 500)); // requests keep coming after it has gone
    stop = true;
    await Promise.all(senders);
    expect(outcomes.length).toBeGreaterThan(0);
    expect(outcomes.filter((o) => !(o.kind === 'answered' && o.status === 200))).toEqual([]);
    expect(server.output()).toMatch(new RegExp(`HTTP process \\d \\(pid ${victim}\\) exited \\(code 0\\)`));
    await waitFor(() => httpProcessPids().length === 2, { timeoutMs: 30_000, what: 'its replacement' });
  }, 60_000);

  it('answers every request in flight at SIGTERM, then exits 0 with every process gone', async () => {
    const pids = httpProcessPids();
    const outcomes: Outcome[] = [];
    let signalled = false;
    let inFlight = 0;
    let n = 0;
    // Requests of 20 alerts from 4 senders: some are in flight at the signal, few enough to be answered
    // within the 10 s grace on a busy 2-core machine. A sender starts none after the signal: a
    // connection attempt racing the close is the drill's concern (sigterm-under-load, whose senders
    // retry), not what this process promises to answer.
    const senders = Array.from({ length: 4 }, async () => {
      while (!signalled) {
        const alerts = Array.from({ length: 20 }, (_, i) => ({
          title: `Cluster ${n} ${i}`,
          external_id: `c-${n}-${i}`,
        }));
        n += 1;
        inFlight += 1;
        outcomes.push(await send('POST', '/api/v1/webhooks/generic', JSON.stringify({ alerts })));
        inFlight -= 1;
      }
    });
    await new Promise((done) => setTimeout(done, 2000));
    signalled = true;
    const inFlightAtSignal = inFlight;
    const exitCode = await server.stop('SIGTERM');
    await Promise.all(senders);

    expect(exitCode).toBe(0);
    expect(inFlightAtSignal).toBeGreaterThan(0);
    expect(outcomes.filter((o) => !(o.kind === 'answered' && o.status === 200))).toEqual([]);
    for (const pid of pids) expect(() => process.kill(pid, 0)).toThrow();
    expect(server.output()).not.toMatch(/"level":"fatal"/);
    // The two exits above, each replaced.
    expect(server.output().match(/"level":"error"/g)).toHaveLength(2);
  }, 60_000);
});
