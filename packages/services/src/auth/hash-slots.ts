import { AppError } from '@firebreak/schema';

/**
 * A cap on the password hashes one process runs at once. Each scrypt hash takes 32 MiB and about
 * 100 ms of a libuv thread, so a burst of logins (or of made-up setup tokens) could otherwise exhaust
 * memory and starve every other use of the thread pool (DNS, files). Beyond the cap a hash waits
 * briefly for a free slot; then the request is refused with 503 `service_unavailable` and
 * `Retry-After`, rather than queueing without bound.
 */
export class HashSlots {
  private inUse = 0;
  private readonly waiting: Array<() => void> = [];

  constructor(
    readonly limit: number,
    private readonly maxWaitMs: number,
  ) {}

  /**
   * `maxWaitMs`: how long to wait for a slot before the 503; `Infinity` for work done in bulk (an
   * import's accounts), which waits its turn rather than failing on a busy server.
   */
  async run<T>(work: () => Promise<T>, maxWaitMs = this.maxWaitMs): Promise<T> {
    await this.acquire(maxWaitMs);
    try {
      return await work();
    } finally {
      this.release();
    }
  }

  /** Takes a slot, waiting at most `maxWaitMs`; throws 503 when none came free. */
  async acquire(maxWaitMs = this.maxWaitMs): Promise<void> {
    if (this.inUse < this.limit) {
      this.inUse += 1;
      return;
    }
    await new Promise<void>((resolve, reject) => {
      let timer: NodeJS.Timeout | undefined;
      const grant = () => {
        clearTimeout(timer);
        resolve();
      };
      this.waiting.push(grant);
      if (maxWaitMs === Number.POSITIVE_INFINITY) return;
      timer = setTimeout(() => {
        this.waiting.splice(this.waiting.indexOf(grant), 1);
        reject(
          new AppError('service_unavailable', 'The server is busy checking passwords; retry shortly.', {
            retry_after_seconds: 1,
          }),
        );
      }, maxWaitMs);
    });
  }

  /** Hands the slot to the longest waiter, else frees it. */
  release(): void {
    const next = this.waiting.shift();
    if (next) next();
    else this.inUse -= 1;
  }
}

/**
 * The process's slots: as many as libuv's default thread pool has threads (4), so hashes never queue
 * inside the pool behind each other's 100 ms, and a waiter gives up after 2 s.
 */
export const passwordHashSlots = new HashSlots(4, 2000);
