import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { getFreePort, type PrivateRedis, startProcess, waitFor } from '@firebreak/testing';
import { withRedis } from './redis';
import type { Defer } from './types';

export const MASTER_NAME = 'drillmaster';

/**
 * Three Redis Sentinels watching `primary` (quorum 2, primary judged down after 2 s), each in its own
 * process with its own config file, as a production set-up would run them.
 */
export async function startSentinels(defer: Defer, primary: PrivateRedis): Promise<number[]> {
  const dir = mkdtempSync(join(tmpdir(), 'firebreak-sentinels-'));
  defer(() => rmSync(dir, { recursive: true, force: true }));
  const ports: number[] = [];
  for (let i = 0; i < 3; i++) {
    const port = await getFreePort();
    const config = join(dir, `sentinel-${i}.conf`);
    writeFileSync(
      config,
      [
        `port ${port}`,
        'bind 127.0.0.1',
        `dir ${dir}`,
        `sentinel monitor ${MASTER_NAME} 127.0.0.1 ${primary.port} 2`,
        `sentinel down-after-milliseconds ${MASTER_NAME} 2000`,
        `sentinel failover-timeout ${MASTER_NAME} 10000`,
      ].join('\n'),
    );
    const sentinel = startProcess('redis-server', [config, '--sentinel'], { cwd: dir, env: process.env });
    defer(() => sentinel.stop('SIGKILL'));
    ports.push(port);
  }
  // Ready when every sentinel has found the replica and the other sentinels.
  await waitFor(
    async () => {
      for (const port of ports) {
        const master = (await withRedis(`redis://127.0.0.1:${port}`, (r) =>
          r.call('SENTINEL', 'MASTER', MASTER_NAME),
        )) as string[];
        const field = (name: string) => Number(master[master.indexOf(name) + 1]);
        if (field('num-slaves') < 1 || field('num-other-sentinels') < 2) return false;
      }
      return true;
    },
    { timeoutMs: 30_000, intervalMs: 250, what: 'sentinels to see the replica and each other' },
  );
  return ports;
}

/** The port of the primary the sentinel at `port` names now. */
export async function primaryPort(port: number): Promise<number> {
  const address = (await withRedis(`redis://127.0.0.1:${port}`, (r) =>
    r.call('SENTINEL', 'GET-MASTER-ADDR-BY-NAME', MASTER_NAME),
  )) as [string, string];
  return Number(address[1]);
}
