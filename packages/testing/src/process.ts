import { type ChildProcess, spawn } from 'node:child_process';
import { waitFor } from './ports';

export interface RunningProcess {
  child: ChildProcess;
  /** Everything it wrote so far, stdout and stderr interleaved. */
  output(): string;
  /** Waits until the output contains `text` (or matches it), failing with the output so far. */
  waitForOutput(text: string | RegExp, timeoutMs?: number): Promise<string>;
  /** Resolves with the exit code once it has exited (however that came about). */
  exited(): Promise<number | null>;
  /** Sends `signal` and resolves with the exit code once it has exited. */
  stop(signal?: NodeJS.Signals): Promise<number | null>;
}

/** A child process whose output a test can read and wait on (apps started alone, `pnpm start`…). */
export function startProcess(
  command: string,
  args: string[],
  options: { cwd: string; env: Record<string, string | undefined>; detached?: boolean },
): RunningProcess {
  const child = spawn(command, args, {
    cwd: options.cwd,
    env: options.env,
    stdio: ['ignore', 'pipe', 'pipe'],
    detached: options.detached ?? false,
  });
  let output = '';
  const append = (chunk: unknown) => {
    output += String(chunk);
  };
  child.stdout?.on('data', append);
  child.stderr?.on('data', append);
  const exited = new Promise<number | null>((resolve) => child.once('exit', (code) => resolve(code)));
  return {
    child,
    output: () => output,
    waitForOutput: (text, timeoutMs = 30_000) =>
      waitFor(() => (typeof text === 'string' ? output.includes(text) : text.test(output)) && output, {
        timeoutMs,
        what: `${String(text)} in the output of ${command} ${args.join(' ')}:\n${output}`,
      }),
    exited: () => exited,
    stop: async (signal = 'SIGTERM') => {
      if (child.exitCode === null) child.kill(signal);
      return exited;
    },
  };
}
