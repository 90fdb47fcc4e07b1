// The child processes of the split deployment: started, their output passed on line by line with
// the process's name, stopped with a signal and a deadline.
import { type ChildProcess, spawn } from 'node:child_process';
import { createInterface } from 'node:readline';

/** Where each line a process writes goes (the terminal, or a test's buffer). */
export type LogSink = (name: string, line: string) => void;

export interface ChildOptions {
  cwd: string;
  env: NodeJS.ProcessEnv;
  log: LogSink;
  /** The signal that makes this program stop gracefully (nginx: SIGQUIT). */
  stopSignal?: NodeJS.Signals;
  /** A file descriptor to use as the child's stdout instead of a pipe to us (the caller reads it). */
  stdoutFd?: number;
  /** A step that is meant to exit by itself (migrations): its exit is not reported as unexpected. */
  oneShot?: boolean;
  /** Run as this user (PostgreSQL's tools refuse root). */
  user?: { uid: number; gid: number };
}

export class ManagedProcess {
  private readonly child: ChildProcess;
  private readonly exit: Promise<number | null>;
  /** Exit code, `null` while running or when ended by a signal (see `signal`). */
  code: number | null = null;
  signal: NodeJS.Signals | null = null;
  private stopping = false;

  constructor(
    readonly name: string,
    command: string,
    args: string[],
    private readonly options: ChildOptions,
  ) {
    // detached: a process group of its own, so that Ctrl-C in a terminal (SIGINT to the whole
    // foreground group) reaches only the start script, which then stops everything in order.
    this.child = spawn(command, args, {
      cwd: options.cwd,
      env: options.env,
      stdio: ['ignore', options.stdoutFd ?? 'pipe', 'pipe'],
      detached: true,
      ...(options.user ? { uid: options.user.uid, gid: options.user.gid } : {}),
    });
    for (const stream of [this.child.stdout, this.child.stderr]) {
      if (stream) createInterface({ input: stream }).on('line', (line) => options.log(name, line));
    }
    this.exit = new Promise((resolve) => {
      this.child.once('error', (error) => {
        options.log(name, `could not start ${command}: ${error.message}`);
        resolve(null);
      });
      this.child.once('exit', (code, signal) => {
        this.code = code;
        this.signal = signal;
        if (!this.stopping && !options.oneShot)
          options.log(name, `exited unexpectedly (${signal ?? `code ${code}`})`);
        resolve(code);
      });
    });
  }

  get pid(): number | undefined {
    return this.child.pid;
  }

  get running(): boolean {
    return this.child.exitCode === null && this.child.signalCode === null;
  }

  exited(): Promise<number | null> {
    return this.exit;
  }

  /**
   * Sends the stop signal and waits for the exit; after `graceMs` the process is killed (SIGKILL),
   * and its exit then reads as a signal, not a clean 0.
   */
  async stop(graceMs = 30_000): Promise<number | null> {
    this.stopping = true;
    if (!this.running) return this.exit;
    this.child.kill(this.options.stopSignal ?? 'SIGTERM');
    const timer = setTimeout(() => {
      this.options.log(this.name, `still running ${graceMs} ms after the stop signal: killing it`);
      this.child.kill('SIGKILL');
    }, graceMs);
    try {
      return await this.exit;
    } finally {
      clearTimeout(timer);
    }
  }

  /** Like a crash: no chance to clean up (for failover checks). */
  async kill(): Promise<void> {
    this.stopping = true;
    if (this.running) this.child.kill('SIGKILL');
    await this.exit;
  }

  /**
   * Like the machine dying: SIGKILL to the process and everything it started (its process group: a
   * pg_autoctl keeper with its PostgreSQL and their backends), all at once.
   */
  async killGroup(): Promise<void> {
    this.stopping = true;
    if (this.running && this.child.pid !== undefined) process.kill(-this.child.pid, 'SIGKILL');
    await this.exit;
  }
}

/** Polls `check` until it returns a value other than undefined/false, or fails after `timeoutMs`. */
export async function waitUntil<T>(
  what: string,
  check: () => Promise<T | undefined | false>,
  options: { timeoutMs?: number; intervalMs?: number; abortIf?: () => string | undefined } = {},
): Promise<T> {
  const deadline = Date.now() + (options.timeoutMs ?? 60_000);
  let lastError = '';
  while (Date.now() < deadline) {
    const abort = options.abortIf?.();
    if (abort) throw new Error(`${what}: ${abort}`);
    try {
      const value = await check();
      if (value !== undefined && value !== false) return value;
    } catch (error) {
      lastError = error instanceof Error ? error.message : String(error);
    }
    await new Promise((resolve) => setTimeout(resolve, options.intervalMs ?? 200));
  }
  throw new Error(`timed out waiting for ${what}${lastError ? ` (last error: ${lastError})` : ''}`);
}
