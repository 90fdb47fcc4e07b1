// The drain of a shutdown against keep-alive clients that keep firing right through it: every request
// that reached the server on a connection it accepted is answered; the only failures allowed are a
// refused connection (the listener is closed; a sender retries) and a reset of a connection this server
// never accepted (the kernel's listen queue, reset when the listener closes; it carried nothing read).
import { Agent, createServer, request } from 'node:http';
import type { AddressInfo } from 'node:net';
import { createLogger } from '@firebreak/logger';
import { describe, expect, it } from 'vitest';
import { drainable } from './drain';

const CLIENTS = 48;
const ROUNDS = 4;

type Outcome =
  | { kind: 'answered'; id: string; status: number; closing: boolean }
  | { kind: 'refused' }
  | { kind: 'reset'; port: number | undefined };

interface Round {
  outcomes: Outcome[];
  /** Client ports of the connections the server accepted. */
  accepted: Set<number>;
  /** Requests the server's handler read. */
  read: Set<string>;
  inFlightAtClose: number;
}

function post(agent: Agent, port: number, id: string): Promise<Outcome> {
  return new Promise((resolve) => {
    let localPort: number | undefined;
    const req = request({ port, host: '127.0.0.1', method: 'POST', path: '/', agent }, (res) => {
      res.resume();
      res.on('end', () =>
        resolve({
          kind: 'answered',
          id,
          status: res.statusCode ?? 0,
          closing: res.headers.connection === 'close',
        }),
      );
      res.on('error', () => resolve({ kind: 'reset', port: localPort }));
    });
    req.on('socket', (socket) => {
      localPort = socket.localPort;
      if (socket.connecting) {
        socket.once('connect', () => {
          localPort = socket.localPort;
        });
      }
    });
    req.on('error', (error: NodeJS.ErrnoException) =>
      resolve(error.code === 'ECONNREFUSED' ? { kind: 'refused' } : { kind: 'reset', port: localPort }),
    );
    req.end(JSON.stringify({ id, padding: 'x'.repeat(2000) }));
  });
}

async function round(): Promise<Round> {
  const accepted = new Set<number>();
  const read = new Set<string>();
  const server = createServer((req, res) => {
    let body = '';
    req.on('data', (chunk: Buffer) => {
      body += chunk;
    });
    req.on('end', () => {
      read.add((JSON.parse(body) as { id: string }).id);
      // Work that spans event-loop turns, like a handler awaiting its database.
      setTimeout(() => res.end('ok'), Math.random() * 4);
    });
  });
  server.on('connection', (socket) => accepted.add(socket.remotePort!));
  const drain = drainable(server, createLogger({ level: 'silent' }));
  await new Promise<void>((done) => server.listen(0, '127.0.0.1', done));
  const { port } = server.address() as AddressInfo;

  const outcomes: Outcome[] = [];
  let inFlight = 0;
  let closing = false;
  let next = 0;
  const clients = Array.from({ length: CLIENTS }, async () => {
    const agent = new Agent({ keepAlive: true, maxSockets: 1 });
    try {
      while (true) {
        inFlight += 1;
        const outcome = await post(agent, port, `r${next++}`);
        inFlight -= 1;
        outcomes.push(outcome);
        if (closing && outcome.kind !== 'answered') return;
      }
    } finally {
      agent.destroy();
    }
  });
  await new Promise((done) => setTimeout(done, 300));
  closing = true;
  const inFlightAtClose = inFlight;
  await drain.close(10_000);
  await Promise.all(clients);
  return { outcomes, accepted, read, inFlightAtClose };
}

describe('drainable: close under keep-alive load', () => {
  it('answers every request that reached the server, right through the close', async () => {
    for (let i = 0; i < ROUNDS; i++) {
      const { outcomes, accepted, read, inFlightAtClose } = await round();
      const answered = outcomes.filter((o) => o.kind === 'answered');
      const resets = outcomes.filter((o) => o.kind === 'reset');
      const cutOff = resets.filter((o) => o.port === undefined || accepted.has(o.port));
      const unanswered = [...read].filter((id) => !answered.some((o) => o.id === id));
      const summary = JSON.stringify({
        round: i,
        requests: outcomes.length,
        inFlightAtClose,
        answered: answered.length,
        refused: outcomes.filter((o) => o.kind === 'refused').length,
        resetNeverAccepted: resets.length - cutOff.length,
        cutOff: cutOff.length,
        unanswered: unanswered.length,
      });
      // The race was on: requests in flight at the close, answered with `Connection: close`.
      expect(inFlightAtClose, summary).toBeGreaterThan(CLIENTS / 2);
      expect(answered.filter((o) => o.closing).length, summary).toBeGreaterThan(0);
      expect(cutOff, summary).toEqual([]);
      expect(unanswered, summary).toEqual([]);
      expect(
        answered.every((o) => o.status === 200),
        summary,
      ).toBe(true);
    }
  }, 60_000);
});
