// An incident API in this process on a database and store of the test's choosing (often broken ones),
// with its log captured: what an operator would see in `/ready`, the API's answers and the log.
import { createApp } from '@firebreak/api';
import { loadConfig } from '@firebreak/config';
import { createRuntime, type Runtime } from '@firebreak/runtime';
import { bodyOf, captureLogs, createTestRedisPrefix, type LogCapture } from '@firebreak/testing';

export interface FailingApi {
  app: ReturnType<typeof createApp>;
  runtime: Runtime;
  logs: LogCapture;
  ready(): Promise<{ status: number; body: Record<string, unknown> }>;
  /** A request that needs the database (the token check reads it first). */
  listIncidents(): Promise<{ status: number; body: { error?: { code: string } } }>;
  /** Log lines whose message starts with `prefix`. */
  linesStartingWith(prefix: string): Array<Record<string, unknown>>;
  close(): Promise<void>;
}

/**
 * `storeReachable`: wait until the store answers, so that `/ready` speaks about the database only
 * (a client that has not connected yet counts as a store outage).
 */
export async function startFailingApi(
  env: Record<string, string>,
  { storeReachable = true }: { storeReachable?: boolean } = {},
): Promise<FailingApi> {
  const logs = captureLogs();
  const config = loadConfig({ LOG_LEVEL: 'info', ...env });
  const runtime = createRuntime({
    name: 'api',
    config,
    logger: logs.logger,
    redisPrefix: createTestRedisPrefix(),
  });
  const app = createApp({ ctx: runtime.ctx, ready: runtime.ready, config });
  if (storeReachable && runtime.redis.status !== 'ready') {
    await new Promise((resolve) => runtime.redis.once('ready', resolve));
  }
  return {
    app,
    runtime,
    logs,
    ready: async () => {
      const res = await app.request('/ready');
      return { status: res.status, body: await bodyOf(res) };
    },
    listIncidents: async () => {
      const res = await app.request('/api/v1/incidents', {
        headers: { authorization: 'Bearer fbk_some-api-key-the-database-must-check' },
      });
      return { status: res.status, body: await bodyOf(res) };
    },
    linesStartingWith: (prefix) => logs.lines.filter((line) => String(line.msg).startsWith(prefix)),
    close: () => runtime.close(),
  };
}
