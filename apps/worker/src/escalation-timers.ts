import {
  findNextEscalationDeadline,
  reportIfDatabaseUnavailable,
  runDueEscalations,
  type ServiceContext,
} from '@firebreak/services';

export interface RunningReconciler {
  /** Fires what is due now; resolves once a pass that began after the call has ended. */
  runOnce(): Promise<number>;
  stop(): Promise<void>;
}

// While due escalations are held by other transactions (another replica's pass, an acknowledgement in
// progress) the pass skips them: look again soon, backing off up to the poll interval.
const HELD_RETRY_MS = 25;

/**
 * Fires escalation steps on time (docs/architecture.md#timers-are-rows,
 * docs/decisions.md#escalation-timers-under-load). The deadlines are rows; after every pass the
 * reconciler sets an alarm for the earliest one, so each step fires at its deadline without Redis.
 * Whatever makes a deadline come sooner also writes an outbox row — starting an escalation writes its
 * `escalation.check` row, a step fired on another replica its chat notice — so the reconciler listens
 * for the relay's wake-up too and looks at once. It still looks every `pollMs`, in case a wake-up was
 * lost with its connection.
 */
export async function startEscalationReconciler(
  ctx: ServiceContext,
  pollMs = 1000,
): Promise<RunningReconciler> {
  let current: Promise<number> | undefined;
  let queued: Promise<number> | undefined;
  let alarm: NodeJS.Timeout | undefined;
  let stopped = false;
  let heldRetries = 0;

  const setAlarm = (due: Date | null, fired: number) => {
    clearTimeout(alarm);
    if (stopped) return;
    let wait = due ? due.getTime() - ctx.now().getTime() : pollMs;
    if (wait <= 0 && fired === 0) wait = HELD_RETRY_MS * 2 ** heldRetries++;
    else heldRetries = 0;
    alarm = setTimeout(() => void runOnce(), Math.min(Math.max(wait, 0), pollMs));
  };

  const pass = async (): Promise<number> => {
    let fired = 0;
    let due: Date | null = null;
    try {
      // Most wake-ups find nothing due: one indexed read answers that.
      due = await findNextEscalationDeadline(ctx);
      while (due && due <= ctx.now()) {
        const firedNow = await runDueEscalations(ctx);
        fired += firedNow;
        due = await findNextEscalationDeadline(ctx);
        if (firedNow === 0) break;
      }
    } catch (error) {
      // A database outage would otherwise log a line every pass.
      if (!reportIfDatabaseUnavailable(ctx, error)) {
        ctx.logger.warn({ err: error }, 'escalation reconciler pass failed');
      }
    }
    setAlarm(due, fired);
    return fired;
  };

  // One pass at a time; calls during a pass share the one pass after it, which sees what they saw.
  const runOnce = (): Promise<number> => {
    if (!current) {
      current = pass().finally(() => {
        current = undefined;
      });
      return current;
    }
    queued ??= current.then(() => {
      queued = undefined;
      return runOnce();
    });
    return queued;
  };

  const listener = await ctx.sql
    .listen('firebreak_outbox', () => {
      if (!stopped) void runOnce();
    })
    .catch(() => undefined);
  void runOnce();
  return {
    runOnce,
    stop: async () => {
      stopped = true;
      clearTimeout(alarm);
      await listener?.unlisten().catch(() => {});
      await queued;
      await current;
      clearTimeout(alarm);
    },
  };
}
