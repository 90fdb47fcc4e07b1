import { outbox, type Sql } from '@firebreak/db';
import type { ServiceContext } from '../context';

// Per pool: whether a wake is on its way, and whether another was asked for meanwhile.
const wakes = new WeakMap<Sql, { again: boolean }>();

/**
 * Wakes the outbox relay after a commit that deferred its NOTIFY (`outbox.deferRelayWake`). Never
 * awaited by the request: the answer does not wait for it. Wakes asked for while one is on its way
 * are folded into one more, so a storm of openings sends a few wakes, not one per incident. A failed
 * wake is only logged: the relay's poll moves the rows within a second.
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
      do {
        state.again = false;
        await outbox.wakeRelay(ctx.sql);
      } while (state.again);
    } catch (error) {
      ctx.logger.debug({ err: error }, 'outbox relay wake failed; its poll will move the rows');
    } finally {
      wakes.delete(ctx.sql);
    }
  })();
}
