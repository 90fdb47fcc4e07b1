import getPort from 'get-port';

/** A TCP port that was free a moment ago on 127.0.0.1. */
export function getFreePort(): Promise<number> {
  return getPort({ host: '127.0.0.1' });
}

export async function waitFor<T>(
  check: () => Promise<T | undefined | false> | T | undefined | false,
  options: { timeoutMs?: number; intervalMs?: number; what?: string } = {},
): Promise<T> {
  const deadline = Date.now() + (options.timeoutMs ?? 10_000);
  let lastError: unknown;
  while (Date.now() < deadline) {
    try {
      const value = await check();
      if (value !== undefined && value !== false) return value;
    } catch (error) {
      lastError = error;
    }
    await new Promise((resolve) => setTimeout(resolve, options.intervalMs ?? 50));
  }
  const reason = lastError instanceof Error ? `: ${lastError.message}` : '';
  throw new Error(`timed out waiting for ${options.what ?? 'condition'}${reason}`);
}
