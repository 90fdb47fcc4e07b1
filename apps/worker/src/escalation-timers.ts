import {
  findEscalationDeadlines,
  fireSeparately,
  listOverdueEscalations,
  reportIfDatabaseUnavailable,
  runDueEscalations,
  type ServiceContext,
} from '@firebreak/services';

interface Deadlines {
  due: Date | null;
  upcoming: Date | null;
}

export interface RunningReconciler {
  /** Fires what is due now; resolves once a pass that began after the call has ended. */
  runOnce(): Promise<number>;
  stop(): Promise<void>;
}

// While due escalations are held by other transactions (another replica's pass, an acknowledgement in
// progress) the pass skips them: look again soon, backing off up to the poll interval.
const HELD_RETRY_MS = 25;

// A step still due this long after its deadline was skipped, maybe pass after pass: a storm's intake
// transactions hand its incident's row lock from one to the next, so skip-locked never finds it free.
// It is then fired through the waiting path, off the pass, so the pass goes on firing the rest.
const OVERDUE_GRACE_MS = 300;
// How many such steps wait for their locks at once, each on a connection of its own.
const MAX_WAITING = 4;
// A step still overdue after the waiting path tried it failed to fire (it was logged): it is tried
// again after this long, and meanwhile the ones behind it get their turn.
const RETRY_FAILED_MS = 5000;
// How many overdue steps one look reads, to find ones not waiting or resting after a failure.
const OVERDUE_READ = 50;

/**
 * Fires escalation steps on time (docs/architecture.md#timers-are-rows,
 * docs/decisions.md#escalation-timers-under-load). The deadlines are rows; after every pass the
 * reconciler sets an alarm for the earliest one, so each step fires at its deadline without Redis.
 * Whatever makes a deadline come sooner also wakes the relay — an opening that starts an escalation
 * after its commit (`announceIncident`), a step fired on another replica through its chat notice's
 * outbox row — so the reconciler listens for the relay's wake-up too and looks at once. It still looks every `pollMs`, in case a wake-up was
 * lost with its connection. A pass skips held rows; one still due past OVERDUE_GRACE_MS is fired by
 * `fireSeparately`, which waits for its locks, and the alarm never sleeps past the next deadline to come.
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

  const waiting = new Map<string, Promise<void>>();
  const triedAt = new Map<string, number>();

  const setAlarm = (deadlines: Deadlines, fired: number) => {
    clearTimeout(alarm);
    if (stopped) return;
    const now = ctx.now().getTime();
    const { due, upcoming } = deadlines;
    let wait = due ? due.getTime() - now : pollMs;
    if (wait <= 0 && fired === 0) wait = HELD_RETRY_MS * 2 ** heldRetries++;
    else heldRetries = 0;
    // The earliest deadline may be held past its time; the next one must not wait for its backoff.
    if (upcoming) wait = Math.min(wait, upcoming.getTime() - now);
    alarm = setTimeout(() => void runOnce(), Math.min(Math.max(wait, 0), pollMs));
  };

  // Fires overdue steps (held, or failing) through the waiting path, each once at a time.
  const fireOverdue = async () => {
    if (waiting.size >= MAX_WAITING) return;
    const now = Date.now();
    for (const [incidentId, at] of triedAt) if (now - at >= RETRY_FAILED_MS) triedAt.delete(incidentId);
    for (const incidentId of await listOverdueEscalations(ctx, OVERDUE_GRACE_MS, OVERDUE_READ)) {
      if (waiting.size >= MAX_WAITING || stopped) return;
      if (waiting.has(incidentId) || triedAt.has(incidentId)) continue;
      const attempt = fireSeparately(ctx, [incidentId]).then(
        (fired) => {
          // Its next deadline is new to the alarm. Nothing fired: it failed, or someone else fired it.
          if (fired === 0) triedAt.set(incidentId, Date.now());
          else if (!stopped) void runOnce();
        },
        (error: unknown) => {
          reportIfDatabaseUnavailable(ctx, error);
        },
      );
      waiting.set(
        incidentId,
        attempt.finally(() => waiting.delete(incidentId)),
      );
    }
  };

  const pass = async (): Promise<number> => {
    let fired = 0;
    let deadlines: Deadlines = { due: null, upcoming: null };
    try {
      // Most wake-ups find nothing due: one indexed read answers that.
      deadlines = await findEscalationDeadlines(ctx);
      while (deadlines.due && deadlines.due <= ctx.now()) {
        // What falls due after this moment, the firing below may not have seen. A timer can fire a
        // millisecond before the deadline it was set for (node counts from the loop's start): the next
        // step then passed while this pass fired nothing, and, counted from the pass's end, it would no
        // longer be "upcoming"; the alarm would wait out a held step's backoff, seconds, before firing it.
        const firing = ctx.now();
        const firedNow = await runDueEscalations(ctx);
        fired += firedNow;
        deadlines = await findEscalationDeadlines(ctx, firing);
        if (firedNow === 0) break;
      }
      if (deadlines.due && deadlines.due.getTime() <= ctx.now().getTime() - OVERDUE_GRACE_MS) {
        await fireOverdue();
      }
    } catch (error) {
      // A database outage would otherwise log a line every pass.
      if (!reportIfDatabaseUnavailable(ctx, error)) {
        ctx.logger.warn({ err: error }, 'escalation reconciler pass failed');
      }
    }
    setAlarm(deadlines, fired);
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
      await Promise.all(waiting.values());
      clearTimeout(alarm);
    },
  };
}
