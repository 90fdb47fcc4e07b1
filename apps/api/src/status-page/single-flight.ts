/** An answer and when it was computed (milliseconds of the clock given to `cachedSingleFlight`). */
export interface Snapshot<T> {
  value: T;
  at: number;
}

export interface CachedSingleFlight<T> {
  /** The kept answer while it is fresh; else a new one (shared by every caller meanwhile). */
  get: () => Promise<T>;
  /** The last answer computed without error, however old: what a failed refresh falls back to. */
  last: () => Snapshot<T> | undefined;
}

/**
 * The public page is read by many at once exactly when something is down, is not behind the API's rate
 * limit, and its queries follow the open incidents' alerts; so each process computes it at most once
 * per `ttlMs`: within that time every request gets the kept answer, whatever its query string or path.
 * A refresh is shared by the requests that arrive while it runs (one computation at a time). A failed
 * refresh keeps nothing and discards nothing: the last good answer stays available through `last()`,
 * and the next request tries again.
 */
export function cachedSingleFlight<T>(
  compute: () => Promise<T>,
  options: { ttlMs: number; now: () => number },
): CachedSingleFlight<T> {
  let kept: Snapshot<T> | undefined;
  let inFlight: Promise<T> | undefined;
  const refresh = () => {
    if (!inFlight) {
      const startedAt = options.now();
      inFlight = compute()
        .then((value) => {
          kept = { value, at: startedAt };
          return value;
        })
        .finally(() => {
          inFlight = undefined;
        });
    }
    return inFlight;
  };
  return {
    get: () => {
      if (kept && options.now() - kept.at < options.ttlMs) return Promise.resolve(kept.value);
      return refresh();
    },
    last: () => kept,
  };
}
