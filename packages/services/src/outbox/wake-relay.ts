import { setTimeout as sleep } from 'node:timers/promises';
import { outbox, type Sql } from '@firebreak/db';
import type { ServiceContext } from '../context';

// Per pool: whether a wake is on its way, and whether another was asked for meanwhile.
const wakes = new WeakMap<Sql, { again: boolean }>();

/**
 * Back-to-back wakes are spaced this far apart. Each wake is a transaction of its own and each wakes a
 * relay pass; under a storm of openings one every 50 ms moves the same rows in fewer, larger passes
 * (about 20 a second rather than one per commit), while a lone opening's wake still goes at once.
 */
const WAKE_SPACING_MS = 50;

/**
 * Wakes the outbox relay after a commit that deferred its NOTIFY (`outbox.deferRelayWake`). Never
 * awaited by the request: the answer does not wait for it. Wakes asked for while one is on its way
 * are folded into one more, sent no sooner than `WAKE_SPACING_MS` after the previous one, so a storm
 * of openings sends a few wakes, not one per incident. A failed wake is only logged: the relay's poll
 * moves the rows within a second.
 */
export function wakeOutboxRelay(ctx: ServiceContext): void {
  const inFlight = wakes.get(ctx.sql);
  if (inFlight) {
    inFlight.again = true;
    return;
  }
  const state = { again: false };
  wakes.set(ctx.sql, state);
  void (async () => {
    try {
      for (;;) {
        state.again = false;
        const sentAt = performance.now();
        await outbox.wakeRelay(ctx.sql);
        if (!state.again) break;
        // Wakes asked for during this wait are covered by the next one too.
        await sleep(Math.max(0, WAKE_SPACING_MS - (performance.now() - sentAt)));
      }
    } catch (error) {
      ctx.logger.debug({ err: error }, 'outbox relay wake failed; its poll will move the rows');
    } finally {
      wakes.delete(ctx.sql);
    }
  })();
}
