import { type ChildProcess, spawn } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Redis } from 'ioredis';
import { getFreePort, waitFor } from './ports';

export interface PrivateRedisOptions {
  /** Keep data across restarts with append-only persistence (like production should). */
  appendOnly?: boolean;
  /** `requirepass`. */
  password?: string;
  /** Extra `redis-server` arguments, e.g. `['--maxclients', '2']`. */
  args?: string[];
}

/**
 * A redis-server of the test's own, on a free port, for tests that stop, restart or misconfigure
 * Redis. The machine's shared Redis is never touched by such tests.
 */
export class PrivateRedis {
  readonly port: number;
  readonly dir: string;
  private process: ChildProcess | undefined;

  private constructor(
    port: number,
    private readonly options: PrivateRedisOptions,
  ) {
    this.port = port;
    this.dir = mkdtempSync(join(tmpdir(), 'firebreak-redis-'));
  }

  static async start(options: PrivateRedisOptions = {}): Promise<PrivateRedis> {
    const redis = new PrivateRedis(await getFreePort(), options);
    await redis.start();
    return redis;
  }

  get url(): string {
    return `redis://127.0.0.1:${this.port}`;
  }

  get running(): boolean {
    return this.process !== undefined;
  }

  async start(): Promise<void> {
    if (this.process) return;
    const args = [
      '--port', String(this.port),
      '--bind', '127.0.0.1',
      '--dir', this.dir,
      '--save', '',
      '--appendonly', this.options.appendOnly ? 'yes' : 'no',
      '--logfile', '',
      ...(this.options.password ? ['--requirepass', this.options.password] : []),
      ...(this.options.args ?? []),
    ]; // biome-ignore format: one flag and its value per line pair
    const child = spawn('redis-server', args, { stdio: 'ignore' });
    this.process = child;
    child.on('exit', () => {
      if (this.process === child) this.process = undefined;
    });
    await waitFor(
      async () => {
        const client = new Redis(this.port, '127.0.0.1', {
          lazyConnect: true,
          password: this.options.password,
          maxRetriesPerRequest: 0,
          retryStrategy: () => null,
        });
        client.on('error', () => {}); // a refused connection while starting is expected
        try {
          await client.connect();
          return (await client.ping()) === 'PONG';
        } finally {
          client.disconnect();
        }
      },
      { timeoutMs: 10_000, what: `redis-server on port ${this.port}` },
    );
  }

  /** Kills the server (SIGKILL: like a crash, nothing is flushed beyond what AOF already has). */
  async kill(): Promise<void> {
    await this.stopWith('SIGKILL');
  }

  /** Stops the server the polite way. */
  async stop(): Promise<void> {
    await this.stopWith('SIGTERM');
  }

  async restart(): Promise<void> {
    await this.stop();
    await this.start();
  }

  async destroy(): Promise<void> {
    await this.kill();
    rmSync(this.dir, { recursive: true, force: true });
  }

  private async stopWith(signal: NodeJS.Signals): Promise<void> {
    const child = this.process;
    if (!child) return;
    await new Promise<void>((resolve) => {
      child.once('exit', () => resolve());
      child.kill(signal);
    });
    this.process = undefined;
  }
}
