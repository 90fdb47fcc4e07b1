import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { getRequestListener } from '@hono/node-server';

export interface RunningServer {
  /** `http://127.0.0.1:<port>`, no trailing slash. */
  origin: string;
  close(): Promise<void>;
}

/**
 * Runs before hono sees the request. Returning `true` means "handled": the fakes use it to drop the
 * connection without an HTTP answer, which is what a client sees when the real service is unreachable.
 */
export type BeforeRequest = (req: IncomingMessage, res: ServerResponse) => boolean;

/**
 * Starts a fake on 127.0.0.1 and a free port. We use node:http plus hono's request listener instead of
 * `serve()` because the fakes need the raw socket (to simulate a dead peer), and because
 * `overrideGlobalObjects: false` keeps the fakes from replacing the test process's global
 * Request/Response, which the code under test shares.
 */
export async function listen(
  fetch: (request: Request) => Response | Promise<Response>,
  beforeRequest?: BeforeRequest,
): Promise<RunningServer> {
  const listener = getRequestListener(fetch, { overrideGlobalObjects: false });
  const server = createServer((req, res) => {
    if (beforeRequest?.(req, res)) return;
    void listener(req, res);
  });
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(0, '127.0.0.1', () => resolve());
  });
  const { port } = server.address() as AddressInfo;
  return {
    origin: `http://127.0.0.1:${port}`,
    close: () =>
      new Promise<void>((resolve, reject) => {
        // Keep-alive sockets from fetch would otherwise hold close() open until they time out.
        server.closeAllConnections();
        server.close((err) => (err ? reject(err) : resolve()));
      }),
  };
}

export const sleep = (ms: number) => new Promise<void>((resolve) => setTimeout(resolve, ms));
