import type { Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import type { Logger } from '@firebreak/logger';
import { createAdaptorServer } from '@hono/node-server';
import { drainable } from './drain';

/** Any Hono app, whatever its environment type. */
export interface FetchApp {
  fetch: (request: Request) => Response | Promise<Response>;
}

export interface RunningServer {
  url: string;
  port: number;
  /**
   * Stops listening, answers every request that reached it on a connection it accepted (up to
   * `graceMs`), then closes what is left (drain.ts).
   */
  close(graceMs?: number): Promise<void>;
}

export function startServer(
  app: FetchApp,
  port: number,
  logger: Logger,
  hostname = '0.0.0.0',
): Promise<RunningServer> {
  return new Promise((resolve, reject) => {
    try {
      // Created without listening, so the drain sees every connection from the first one.
      const server = createAdaptorServer({ fetch: app.fetch, hostname }) as Server;
      const drain = drainable(server, logger);
      server.once('error', reject);
      server.listen(port, hostname, () => {
        const info = server.address() as AddressInfo;
        const host = hostname === '0.0.0.0' ? 'localhost' : hostname;
        resolve({
          url: `http://${host}:${info.port}`,
          port: info.port,
          close: (graceMs = 10_000) => drain.close(graceMs),
        });
      });
    } catch (error) {
      reject(error);
    }
  });
}
