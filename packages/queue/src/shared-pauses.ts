import type { Redis } from 'ioredis';

/**
 * Named pauses every process sees, kept in Redis: a rate-limited service asked us to wait, and every
 * worker (in this process or another) must wait with us. Times are Redis's own key expiries, so
 * processes whose clocks disagree still agree on when a pause ends.
 */
export interface SharedPauses {
  /** Milliseconds left of `name`'s pause; 0 when it is not paused. */
  remainingMs(name: string): Promise<number>;
  /**
   * Pauses `name` for `ms` from now; a longer pause already running is kept. True when this call
   * started an episode: no pause of `name` had been started since the last `endEpisode`.
   */
  pause(name: string, ms: number): Promise<boolean>;
  /** Ends `name`'s episode (calls succeed again). True for the one caller that ended it. */
  endEpisode(name: string): Promise<boolean>;
}

// An episode nobody ends (the process that would have seen the next success died) is forgotten this
// long after its last pause, so that the next one is reported again.
const EPISODE_MEMORY_MS = 15 * 60_000;

// KEYS: pause, episode. ARGV: pause ms, episode ms. Extends the pause only if it would end later;
// answers 1 when the episode marker was not set (this call starts an episode).
const PAUSE_SCRIPT = `
local left = redis.call('PTTL', KEYS[1])
if left < tonumber(ARGV[1]) then redis.call('SET', KEYS[1], '1', 'PX', ARGV[1]) end
local started = redis.call('SET', KEYS[2], '1', 'PX', ARGV[2], 'NX')
if not started then redis.call('PEXPIRE', KEYS[2], ARGV[2]) return 0 end
return 1`;

/** Keys are `<prefix>:pause:<name>` and `<prefix>:pause-episode:<name>`. */
export function createSharedPauses(redis: Redis, prefix: string): SharedPauses {
  const pauseKey = (name: string) => `${prefix}:pause:${name}`;
  const episodeKey = (name: string) => `${prefix}:pause-episode:${name}`;
  return {
    async remainingMs(name) {
      return Math.max(0, await redis.pttl(pauseKey(name)));
    },
    async pause(name, ms) {
      const pauseMs = Math.max(1, Math.ceil(ms));
      const started = await redis.eval(
        PAUSE_SCRIPT,
        2,
        pauseKey(name),
        episodeKey(name),
        pauseMs,
        pauseMs + EPISODE_MEMORY_MS,
      );
      return started === 1;
    },
    async endEpisode(name) {
      return (await redis.del(episodeKey(name))) === 1;
    },
  };
}
