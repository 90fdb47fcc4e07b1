import { type ChildProcess, spawn } from 'node:child_process';
import { EmbeddedPostgresError } from './errors';
import type { ServerUser } from './server-user';

/**
 * Runs one of the distribution's programs as the server's user. Messages in English whatever the
 * machine's locale: readiness is read from the server's log. The working directory is the
 * distribution's own, which that user can enter (the caller's may be closed to it).
 */
export function run(
  program: string,
  args: string[],
  options: {
    user: ServerUser | undefined;
    cwd: string;
    onLog: (message: string) => void;
    /**
     * A process group of its own: Ctrl-C at the terminal signals the whole foreground group, and the
     * server must not stop before the app using it has drained its requests; the app stops it last.
     */
    ownProcessGroup?: boolean;
  },
): ChildProcess {
  const child = spawn(program, args, {
    cwd: options.cwd,
    detached: options.ownProcessGroup ?? false,
    env: { ...process.env, LC_MESSAGES: 'C' },
    stdio: ['ignore', 'pipe', 'pipe'],
    ...(options.user ? { uid: options.user.uid, gid: options.user.gid } : {}),
  });
  child.stdout?.on('data', (chunk: Buffer) => options.onLog(chunk.toString('utf8')));
  child.stderr?.on('data', (chunk: Buffer) => options.onLog(chunk.toString('utf8')));
  return child;
}

/** Resolves when `child` exits with 0; rejects with its last output otherwise, or when it cannot run. */
export function succeeds(child: ChildProcess, what: string, output: () => string): Promise<void> {
  return new Promise((resolve, reject) => {
    child.once('error', (error) => reject(cannotRun(what, error)));
    child.once('close', (code, signal) => {
      if (code === 0) resolve();
      else reject(new Error(`${what} failed (${signal ?? `exit code ${code}`}): ${output()}`));
    });
  });
}

/** Resolves when the server says it accepts connections (a standby: read-only ones); rejects if it exits first or cannot run. */
export function ready(child: ChildProcess, output: () => string): Promise<void> {
  return new Promise((resolve, reject) => {
    const watch = (chunk: Buffer) => {
      // A hot standby says "ready to accept read-only connections".
      if (/ready to accept (read-only )?connections/.test(chunk.toString('utf8'))) {
        child.stderr?.off('data', watch);
        resolve();
      }
    };
    child.stderr?.on('data', watch);
    child.once('error', (error) => reject(cannotRun('postgres', error)));
    child.once('close', (code, signal) =>
      reject(
        new Error(`postgres exited before it was ready (${signal ?? `exit code ${code}`}): ${output()}`),
      ),
    );
  });
}

/** Fast shutdown (SIGINT: roll back open transactions, checkpoint, exit), awaited. */
export function stopServer(child: ChildProcess): Promise<void> {
  if (child.exitCode !== null || child.signalCode !== null) return Promise.resolve();
  return new Promise((resolve) => {
    child.once('close', () => resolve());
    child.kill('SIGINT');
  });
}

/**
 * SIGKILL to the server's whole process group (it runs in one of its own), so the backends die with
 * the postmaster and every client sees its connection drop at once: a crash, not a shutdown.
 */
export function killServer(child: ChildProcess): Promise<void> {
  if (child.exitCode !== null || child.signalCode !== null || child.pid === undefined)
    return Promise.resolve();
  return new Promise((resolve) => {
    child.once('close', () => resolve());
    try {
      process.kill(-child.pid!, 'SIGKILL');
    } catch {
      child.kill('SIGKILL');
    }
  });
}

function cannotRun(what: string, error: Error & { code?: string }): Error {
  return new EmbeddedPostgresError(
    `could not run the embedded PostgreSQL's ${what} (${error.code ?? error.message}): ${error.message}`,
  );
}
