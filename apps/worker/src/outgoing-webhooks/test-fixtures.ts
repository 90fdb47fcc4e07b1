// Test-only: a webhook receiver on a real local HTTP server, recording exactly what arrived.
import { createServer, type IncomingHttpHeaders, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';

export interface ReceivedRequest {
  method: string;
  path: string;
  headers: IncomingHttpHeaders;
  /** The raw body, as the signature covers it. */
  body: string;
  /** The status the receiver answered (undefined while it hangs). */
  answered?: number;
}

/** What the receiver answers; `hang` keeps the request open until the receiver closes. */
export type Reply = { status: number; headers?: Record<string, string>; body?: string } | 'hang';

export interface Receiver {
  /** `http://127.0.0.1:<port>`. */
  origin: string;
  received: ReceivedRequest[];
  close(): Promise<void>;
}

export async function startReceiver(reply: (request: ReceivedRequest) => Reply): Promise<Receiver> {
  const received: ReceivedRequest[] = [];
  const hanging: ServerResponse[] = [];
  const server = createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (chunk: Buffer) => chunks.push(chunk));
    req.on('end', () => {
      const request: ReceivedRequest = {
        method: req.method ?? '',
        path: req.url ?? '',
        headers: req.headers,
        body: Buffer.concat(chunks).toString('utf8'),
      };
      received.push(request);
      const answer = reply(request);
      if (answer === 'hang') {
        hanging.push(res);
        return;
      }
      request.answered = answer.status;
      res.writeHead(answer.status, answer.headers ?? {});
      res.end(answer.body ?? '');
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return {
    origin: `http://127.0.0.1:${port}`,
    received,
    close: () =>
      new Promise<void>((resolve) => {
        for (const res of hanging) res.destroy();
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}
