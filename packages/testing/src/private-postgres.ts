import { execFileSync } from 'node:child_process';
import { chmodSync, chownSync, mkdtempSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { createEmbeddedPostgres, type EmbeddedPostgres } from '@firebreak/embedded-postgres';
import { makeSelfSignedCertificate } from './certificate';
import { getFreePort } from './ports';

export interface PrivatePostgresOptions {
  /** Extra server flags, e.g. `['-c', 'max_connections=5']`. */
  postgresFlags?: string[];
  password?: string;
  /** TLS on (a self-signed certificate) and every connection without it refused, like managed databases. */
  requireTls?: boolean;
  /**
   * Start as a hot standby streaming from this server instead of a database of its own. The primary is
   * stopped for a moment while its data directory is copied (the embedded binaries have no
   * pg_basebackup), then started again.
   */
  standbyOf?: PrivatePostgres;
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
    const primary = options.standbyOf;
    const password = primary?.password ?? options.password ?? 'private-test-password';
    const pg = new PrivatePostgres(await getFreePort(), password, dir);
    if (primary) await primary.copyDataTo(join(dir, 'data'));
    const standbyFlags = primary
      ? ['-c', `primary_conninfo=host=127.0.0.1 port=${primary.port} user=postgres password=${password}`]
      : [];
    pg.server = await createEmbeddedPostgres({
      dataDir: join(dir, 'data'),
      port: pg.port,
      password: pg.password,
      flags: [
        ...(options.requireTls ? ['-c', 'ssl=on'] : []),
        ...standbyFlags,
        ...(options.postgresFlags ?? []),
      ],
      ...(options.requireTls ? { afterInitialise: requireTls } : {}),
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

  /** A crash: SIGKILL to the server and its backends; every connection drops at once. */
  async kill(): Promise<void> {
    if (!this.running) return;
    await this.server!.kill();
    this.running = false;
  }

  /**
   * A stopped copy of this server's data, owner and modes kept, marked to start as its standby
   * (`standby.signal`). The server is stopped for the copy and started again.
   */
  private async copyDataTo(target: string): Promise<void> {
    await this.stop();
    try {
      execFileSync('cp', ['-a', this.server!.dataDir, target]);
      const signal = join(target, 'standby.signal');
      writeFileSync(signal, '');
      const { uid, gid } = statSync(target);
      if (process.getuid?.() === 0) chownSync(signal, uid, gid);
    } finally {
      await this.start();
    }
  }

  async destroy(): Promise<void> {
    await this.stop();
    // Relocated when the temporary directory is closed to the server's user: remove that copy too.
    if (this.server?.relocatedFrom) rmSync(this.server.dataDir, { recursive: true, force: true });
    rmSync(this.dir, { recursive: true, force: true });
  }
}

/**
 * Server key and certificate in the data directory (PostgreSQL finds `server.key`/`server.crt` there
 * by default) and a pg_hba.conf that accepts TCP connections only over TLS. The files belong to the
 * data directory's owner: the server (run as `postgres` when tests run as root) refuses a key it does
 * not own or that others can read.
 */
async function requireTls(dataDir: string): Promise<void> {
  const { certificate, key } = await makeSelfSignedCertificate('/CN=localhost');
  const { uid, gid } = statSync(dataDir);
  const files: Array<[string, string, number]> = [
    ['server.crt', certificate, 0o644],
    ['server.key', key, 0o600],
    [
      'pg_hba.conf',
      'hostssl all all 127.0.0.1/32 scram-sha-256\nhostnossl all all 127.0.0.1/32 reject\n',
      0o600,
    ],
  ];
  for (const [name, content, mode] of files) {
    const file = join(dataDir, name);
    writeFileSync(file, content, { mode });
    chmodSync(file, mode);
    if (process.getuid?.() === 0) chownSync(file, uid, gid);
  }
}
