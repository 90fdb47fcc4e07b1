// Test-only: a few lines that make route tests read like what a client does.
import type { Hono } from 'hono';

export type TestClient = (
  method: string,
  path: string,
  options?: { token?: string; body?: unknown },
) => Promise<Response>;

// biome-ignore lint/suspicious/noExplicitAny: any app, whatever its environment type.
export function testClient(app: Hono<any>): TestClient {
  return (method, path, options = {}) => {
    const headers: Record<string, string> = {};
    if (options.token) headers.authorization = `Bearer ${options.token}`;
    if (options.body !== undefined) headers['content-type'] = 'application/json';
    return Promise.resolve(
      app.request(path, {
        method,
        headers,
        ...(options.body !== undefined ? { body: JSON.stringify(options.body) } : {}),
      }),
    );
  };
}
