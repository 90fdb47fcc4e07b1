// The split deployment (infra/local/split-deployment.ts) started for a test: a temporary data
// directory, every process's output kept per process (asserted on, and shown when the start fails).
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import {
  type SplitDeployment,
  type SplitDeploymentOptions,
  startSplitDeployment,
} from '../../infra/local/split-deployment';

export interface TestSplitDeployment extends SplitDeployment {
  /** Every line the named process wrote so far. */
  linesOf(name: string): string[];
  /** Removes the data directory (after `stop()`). */
  removeData(): void;
}

export async function startTestSplitDeployment(
  options: Omit<SplitDeploymentOptions, 'dataDir' | 'log'> = {},
): Promise<TestSplitDeployment> {
  const dataDir = mkdtempSync(join(tmpdir(), 'firebreak-split-'));
  const lines = new Map<string, string[]>();
  const all: string[] = [];
  const log = (name: string, line: string) => {
    if (!lines.has(name)) lines.set(name, []);
    lines.get(name)!.push(line);
    all.push(`[${name}] ${line}`);
  };
  try {
    const deployment = await startSplitDeployment({ ...options, dataDir, log });
    return {
      ...deployment,
      linesOf: (name) => lines.get(name) ?? [],
      removeData: () => rmSync(dataDir, { recursive: true, force: true }),
    };
  } catch (error) {
    rmSync(dataDir, { recursive: true, force: true });
    const message = error instanceof Error ? error.message : String(error);
    throw new Error(`${message}\n--- last output ---\n${all.slice(-60).join('\n')}`);
  }
}
