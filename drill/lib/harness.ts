import type { Drill, DrillOutcome, DrillResult } from './types';

/**
 * Runs one drill within its time limit and then its clean-ups (newest first), whatever happened: a
 * drill that throws or overruns is a failed drill with the reason, never a leaked server or process.
 */
export async function runDrill<Options>(
  drill: Drill<Options>,
  options: Partial<Options> = {},
): Promise<DrillResult> {
  const started = Date.now();
  const cleanups: Array<() => Promise<unknown> | unknown> = [];
  let timer: NodeJS.Timeout | undefined;
  const timeout = new Promise<DrillOutcome>((resolve) => {
    timer = setTimeout(
      () => resolve({ pass: false, numbers: {}, reason: `timed out after ${drill.timeoutMs / 1000} s` }),
      drill.timeoutMs,
    );
  });
  // A drill that overran may still register clean-ups after ours ran: those run at once.
  let closed = false;
  const defer = (cleanup: () => Promise<unknown> | unknown) => {
    if (closed)
      void Promise.resolve()
        .then(cleanup)
        .catch(() => {});
    else cleanups.push(cleanup);
  };
  let outcome: DrillOutcome;
  try {
    outcome = await Promise.race([drill.run(defer, options), timeout]);
  } catch (error) {
    outcome = { pass: false, numbers: {}, reason: error instanceof Error ? error.message : String(error) };
  } finally {
    clearTimeout(timer);
  }
  closed = true;
  for (const cleanup of cleanups.reverse()) {
    try {
      await cleanup();
    } catch (error) {
      process.stderr.write(`drill ${drill.name}: clean-up failed: ${String(error)}\n`);
    }
  }
  return { name: drill.name, ...outcome, seconds: Math.round((Date.now() - started) / 100) / 10 };
}

/** Builds an outcome from named checks: it passes when every check holds; the reason lists those that did not. */
export function verdict(numbers: DrillOutcome['numbers'], checks: Record<string, boolean>): DrillOutcome {
  const failed = Object.entries(checks)
    .filter(([, ok]) => !ok)
    .map(([what]) => what);
  return failed.length === 0
    ? { pass: true, numbers }
    : { pass: false, numbers, reason: `not held: ${failed.join('; ')}` };
}

export const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));
