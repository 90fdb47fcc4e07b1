import { createServer, type Server, Socket } from 'node:net';

/**
 * A TCP proxy in front of a PostgreSQL server that cuts a connection at a chosen moment of a
 * transaction, as a crash or a failover does, but deterministically:
 *
 * - `cutAfterCommit()`: the next COMMIT reaches the server and commits; its answer is dropped with
 *   the connection. The client cannot know whether it committed: the in-doubt case.
 * - `cutAtNextRequest()`: the next bytes a client sends are dropped with the connection, so the
 *   transaction they belonged to never commits.
 *
 * Only the proxy's own connections are cut; the server goes on serving everyone else.
 */
export class CuttingProxy {
  private mode: 'pass' | 'after-commit' | 'next-request' = 'pass';
  private readonly sockets = new Set<Socket>();
  /** Connections cut so far. */
  cuts = 0;

  private constructor(
    private readonly server: Server,
    readonly port: number,
  ) {}

  static async start(target: { host: string; port: number }): Promise<CuttingProxy> {
    let proxy: CuttingProxy | undefined;
    const server = createServer((client) => proxy!.accept(client, target));
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    proxy = new CuttingProxy(server, (server.address() as { port: number }).port);
    return proxy;
  }

  /** `url` (a single-host PostgreSQL URL) through this proxy. */
  through(url: string): string {
    const parsed = new URL(url);
    parsed.host = `127.0.0.1:${this.port}`;
    return parsed.toString();
  }

  cutAfterCommit(): void {
    this.mode = 'after-commit';
  }

  cutAtNextRequest(): void {
    this.mode = 'next-request';
  }

  async stop(): Promise<void> {
    for (const socket of this.sockets) socket.destroy();
    await new Promise((resolve) => this.server.close(resolve));
  }

  private accept(client: Socket, target: { host: string; port: number }): void {
    const upstream = new Socket();
    this.sockets.add(client).add(upstream);
    const cut = () => {
      this.cuts += 1;
      this.mode = 'pass';
      client.destroy();
      upstream.destroy();
    };
    for (const socket of [client, upstream]) {
      socket.on('error', () => {});
      socket.on('close', () => {
        this.sockets.delete(socket);
        client.destroy();
        upstream.destroy();
      });
    }
    client.on('data', (chunk) => {
      if (this.mode === 'next-request') cut();
      else upstream.write(chunk);
    });
    const fromServer = new MessageReader((message) => {
      if (this.mode === 'after-commit' && isCommitComplete(message)) return cut();
      client.write(message);
    });
    upstream.on('data', (chunk) => fromServer.push(chunk));
    upstream.connect(target.port, target.host);
  }
}

/** The server's messages (type byte, int32 length, body), one whole message at a time. */
class MessageReader {
  private buffer = Buffer.alloc(0);

  constructor(private readonly onMessage: (message: Buffer) => void) {}

  push(chunk: Buffer): void {
    this.buffer = Buffer.concat([this.buffer, chunk]);
    while (this.buffer.length >= 5) {
      const length = 1 + this.buffer.readInt32BE(1);
      if (this.buffer.length < length) return;
      const message = this.buffer.subarray(0, length);
      this.buffer = this.buffer.subarray(length);
      this.onMessage(message);
    }
  }
}

// CommandComplete ('C') with the tag COMMIT: the server has committed.
function isCommitComplete(message: Buffer): boolean {
  return message[0] === 0x43 && message.subarray(5, message.length - 1).toString() === 'COMMIT';
}
