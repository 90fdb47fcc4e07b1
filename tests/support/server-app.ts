// A test's own Firebreak: the embedded server's routes (API + ingest) on a fresh database, called in
// process, with an admin to configure it.
import type { Env } from '@firebreak/config';
import {
  createTestRuntime,
  createTestUser,
  type TestRuntime,
  type TestUser,
} from '@firebreak/runtime/testing';
import { createServerApp } from '@firebreak/server';
import { bodyOf, type JsonBody, type TestClient, testClient } from '@firebreak/testing';

export interface TestServer {
  runtime: TestRuntime;
  api: TestClient;
  admin: TestUser;
  /** POST a JSON body to a webhook path; answers status and parsed body. */
  webhook(
    path: string,
    body: unknown,
    headers?: Record<string, string>,
  ): Promise<{ status: number; body: JsonBody }>;
  /** GET an API path as the admin; answers the parsed body. */
  get(path: string): Promise<JsonBody>;
}

export async function startTestServer(env: Env = {}): Promise<TestServer> {
  const runtime = await createTestRuntime({ env });
  const app = createServerApp({ ctx: runtime.ctx, ready: runtime.ready, config: runtime.config });
  const api = testClient(app);
  const admin = await createTestUser(runtime, 'admin', 'Ada Admin');
  return {
    runtime,
    api,
    admin,
    webhook: async (path, body, headers = {}) => {
      const res = await api('POST', path, { body, headers });
      return { status: res.status, body: await bodyOf(res) };
    },
    get: async (path) => bodyOf(await api('GET', path, { token: admin.token })),
  };
}
