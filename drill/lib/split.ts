import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import {
  type SplitDeployment,
  type SplitDeploymentOptions,
  startSplitDeployment,
} from '../../infra/local/split-deployment';
import { ADMIN, api } from './service';
import type { Defer } from './types';

export interface DrillDeployment extends SplitDeployment {
  /** The admin's session token, through nginx. */
  token: string;
  /** The last lines of every process, for a failure's reason. */
  tail(lines?: number): string;
}

/**
 * What `pnpm start:split` runs (infra/local), on a temporary data directory, stopped however the drill
 * ends. Its processes' lines are kept, not printed. The web UI is not built: the drills need the API.
 */
export async function startDrillDeployment(
  defer: Defer,
  options: Omit<SplitDeploymentOptions, 'dataDir' | 'log' | 'buildWebUi'>,
): Promise<DrillDeployment> {
  const dataDir = mkdtempSync(join(tmpdir(), 'firebreak-drill-split-'));
  defer(() => rmSync(dataDir, { recursive: true, force: true }));
  const lines: string[] = [];
  const log = (name: string, line: string) => {
    lines.push(`[${name}] ${line}`);
    if (lines.length > 5000) lines.splice(0, 1000);
  };
  const tail = (count = 40) => lines.slice(-count).join('\n');
  let deployment: SplitDeployment;
  try {
    deployment = await startSplitDeployment({
      ...options,
      dataDir,
      log,
      buildWebUi: false,
      appEnv: {
        BOOTSTRAP_ADMIN_EMAIL: ADMIN.email,
        BOOTSTRAP_ADMIN_PASSWORD: ADMIN.password,
        // The drills measure the promises, not the API rate limiter.
        RATE_LIMIT_REQUESTS_PER_MINUTE: '100000000',
        ...options.appEnv,
      },
    });
  } catch (error) {
    throw new Error(`${error instanceof Error ? error.message : String(error)}\n${tail()}`);
  }
  defer(() => deployment.stop());
  const session = await api<{ token: string }>(
    { url: deployment.url, token: '' },
    'POST',
    '/api/v1/auth/login',
    ADMIN,
  );
  return { ...deployment, token: session.token, tail };
}
