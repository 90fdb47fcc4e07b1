// A server fed connections accepted elsewhere (`pnpm start`'s HTTP processes) keeps node's guards: a
// client that never finishes its request is answered 408 and closed, as on a server that listens.
import { connect, createServer, type Server, type Socket } from 'node:net';
import { createLogger } from '@firebreak/logger';
import { afterEach, describe, expect, it } from 'vitest';
import { type HandedConnectionsServer, serveHandedConnections } from './serve';

const logger = createLogger({ level: 'silent', name: 'serve-test' });
const app = { fetch: () => new Response('ok') };
let acceptor: Server | undefined;
let served: HandedConnectionsServer | undefined;

afterEach(async () => {
  await served?.close(1000);
  await new Promise((done) => (acceptor ? acceptor.close(done) : done(undefined)));
});

/** What a client connected through the hand-off reads until the server closes the connection. */
async function talk(request: string, giveUpMs: number): Promise<{ answer: string; closed: boolean }> {
  served = serveHandedConnections(app, logger, '127.0.0.1', {
    headersTimeout: 300,
    requestTimeout: 600,
    connectionsCheckingInterval: 50,
  });
  const handOff = served;
  // Accepted paused here and handed over, as the primary does.
  acceptor = createServer({ pauseOnConnect: true }, (socket) => handOff.accept(socket));
  await new Promise<void>((done) => acceptor!.listen(0, '127.0.0.1', done));
  const port = (acceptor.address() as { port: number }).port;
  const client: Socket = connect(port, '127.0.0.1');
  let answer = '';
  client.on('data', (chunk) => {
    answer += chunk.toString();
  });
  client.write(request);
  const closed = await new Promise<boolean>((done) => {
    const timer = setTimeout(() => done(false), giveUpMs);
    client.on('close', () => {
      clearTimeout(timer);
      done(true);
    });
  });
  client.destroy();
  return { answer, closed };
}

describe('serveHandedConnections', () => {
  it('answers a whole request on a handed-in connection', async () => {
    const { answer } = await talk('GET / HTTP/1.1\r\nHost: x\r\nConnection: close\r\n\r\n', 3000);
    expect(answer).toMatch(/^HTTP\/1\.1 200 /);
    expect(answer).toMatch(/\r\n\r\nok$/);
  });

  it('answers 408 and closes a connection whose request headers never end', async () => {
    const { answer, closed } = await talk('GET / HTTP/1.1\r\nHost: x\r\n', 5000);
    expect(closed).toBe(true);
    expect(answer).toMatch(/^HTTP\/1\.1 408 /);
  });
});
