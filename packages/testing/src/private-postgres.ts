import { chmodSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { createEmbeddedPostgres, type EmbeddedPostgres } from '@firebreak/embedded-postgres';
import { getFreePort } from './ports';

export interface PrivatePostgresOptions {
  /** Extra server flags, e.g. `['-c', 'max_connections=5']`. */
  postgresFlags?: string[];
  password?: string;
}

/**
 * A PostgreSQL server of the test's own (real binaries from the `embedded-postgres` package), for
 * tests that stop the database or misconfigure it. The shared server is never stopped by a test.
 */
export class PrivatePostgres {
  private running = false;
  /** The server's last lines, to explain a failed start. */
  private readonly output: string[] = [];

  private constructor(
    readonly port: number,
    readonly password: string,
    private readonly dir: string,
    private server: EmbeddedPostgres | undefined = undefined,
  ) {}

  static async start(options: PrivatePostgresOptions = {}): Promise<PrivatePostgres> {
    const dir = mkdtempSync(join(tmpdir(), 'firebreak-pg-'));
    // Created by root when tests run as root; the server's own user must be able to enter it.
    chmodSync(dir, 0o755);
    const pg = new PrivatePostgres(await getFreePort(), options.password ?? 'private-test-password', dir);
    pg.server = await createEmbeddedPostgres({
      dataDir: join(dir, 'data'),
      port: pg.port,
      password: pg.password,
      flags: options.postgresFlags ?? [],
      onLog: (message) => {
        pg.output.push(message);
        if (pg.output.length > 40) pg.output.shift();
      },
    });
    try {
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
    await this.server!.start();
    this.running = true;
  }

  async stop(): Promise<void> {
    if (!this.running) return;
    await this.server!.stop();
    this.running = false;
  }

  async destroy(): Promise<void> {
    await this.stop();
    rmSync(this.dir, { recursive: true, force: true });
  }
}
