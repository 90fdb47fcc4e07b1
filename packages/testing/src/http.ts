/**
 * A response body for assertions. Tests inspect bodies structurally with `expect`, so a loose type is
 * what they need; the assertions, not the type, say what the body must be.
 */
// biome-ignore lint/suspicious/noExplicitAny: see above.
export type JsonBody = any;

export async function bodyOf(res: Response): Promise<JsonBody> {
  return res.json();
}

/** Anything with Hono's `request()`: an app under test, called in-process. */
export interface RequestTarget {
  request(path: string, init?: RequestInit): Response | Promise<Response>;
}

export type TestClient = (
  method: string,
  path: string,
  options?: { token?: string; body?: unknown; headers?: Record<string, string> },
) => Promise<Response>;

/** Route tests read like what a client does: `api('PATCH', '/api/v1/incidents/7', {token, body})`. */
export function testClient(app: RequestTarget): TestClient {
  return async (method, path, options = {}) => {
    const headers: Record<string, string> = { ...options.headers };
    if (options.token) headers.authorization = `Bearer ${options.token}`;
    if (options.body !== undefined) headers['content-type'] ??= 'application/json';
    const body =
      options.body === undefined
        ? undefined
        : typeof options.body === 'string'
          ? options.body
          : JSON.stringify(options.body);
    return app.request(path, { method, headers, ...(body !== undefined ? { body } : {}) });
  };
}
