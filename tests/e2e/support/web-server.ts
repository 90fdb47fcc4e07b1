// A test's own Firebreak over a real HTTP port, with the built UI: the embedded server's routes on a
// fresh database (createServerApp, as `pnpm start` composes them), and an admin to log in as.
import { type RunningServer, startServer } from '@firebreak/runtime';
import {
  createTestRuntime,
  createTestUser,
  type TestRuntime,
  type TestRuntimeOptions,
  type TestUser,
} from '@firebreak/runtime/testing';
import { createServerApp } from '@firebreak/server';
import { ensureWebBuild } from './web-build';

export interface WebTestServer {
  runtime: TestRuntime;
  server: RunningServer;
  url: string;
  admin: TestUser;
  /** A request to the server as the admin's API client would send it (bearer token). */
  api(method: string, path: string, body?: unknown, headers?: Record<string, string>): Promise<Response>;
  close(): Promise<void>;
}

export async function startWebTestServer(options: TestRuntimeOptions = {}): Promise<WebTestServer> {
  const webRoot = ensureWebBuild();
  const runtime = await createTestRuntime(options);
  const app = createServerApp({ ctx: runtime.ctx, ready: runtime.ready, config: runtime.config, webRoot });
  // A test that must know its address up front (PUBLIC_URL for paging) passes PORT; else any free port.
  const server = await startServer(app, runtime.config.port ?? 0, runtime.logger, '127.0.0.1');
  const admin = await createTestUser(runtime, 'admin', 'Ada Admin');
  return {
    runtime,
    server,
    url: server.url,
    admin,
    api: (method, path, body, headers = {}) =>
      fetch(`${server.url}${path}`, {
        method,
        headers: {
          authorization: `Bearer ${admin.token}`,
          ...(body === undefined ? {} : { 'content-type': 'application/json' }),
          ...headers,
        },
        ...(body === undefined ? {} : { body: typeof body === 'string' ? body : JSON.stringify(body) }),
      }),
    close: async () => {
      await server.close(1000);
      await runtime.cleanup();
    },
  };
}
