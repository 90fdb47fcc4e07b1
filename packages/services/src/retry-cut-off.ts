import { isCutOff } from '@firebreak/db';
import type { ServiceContext } from './context';

/** Attempts in all, the first included. */
export const CUT_OFF_ATTEMPTS = 3;
// The second attempt at once (another connection, or a sweep to the new primary), the third a moment
// later; a server that is gone answers the retry with a refusal, which is not retried.
const PAUSE_BEFORE_MS = [0, 0, 250];

/**
 * Runs `transaction` (which opens its own transaction) again when it was cut off mid-way: the
 * connection broke, the server crashed or was demoted, or refused the write as read-only
 * (`isCutOff`). Whether the cut-off attempt committed is unknown — its COMMIT may have been applied
 * and only the answer lost — so this is for transactions whose second run finds the first one's work
 * and does not do it again (docs/decisions.md#postgresql-failover): alerts deduplicated by key, steps
 * claimed by primary key, outbox rows relayed under their ids. `what` names it in the log line.
 */
export async function retryCutOff<T>(
  ctx: Pick<ServiceContext, 'logger'>,
  what: string,
  transaction: () => Promise<T>,
): Promise<T> {
  for (let attempt = 1; ; attempt++) {
    try {
      return await transaction();
    } catch (error) {
      if (attempt >= CUT_OFF_ATTEMPTS || !isCutOff(error)) throw error;
      ctx.logger.warn(
        { attempt, code: (error as { code: string }).code },
        `${what}: transaction cut off by the database; running it again`,
      );
      const pause = PAUSE_BEFORE_MS[attempt] ?? 0;
      if (pause > 0) await new Promise((resolve) => setTimeout(resolve, pause));
    }
  }
}
