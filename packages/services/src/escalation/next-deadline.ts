import { escalations } from '@firebreak/db';
import type { ServiceContext } from '../context';

/** When the next escalation step falls due (null: none is running); the reconciler sleeps until then. */
export async function findNextEscalationDeadline(ctx: ServiceContext): Promise<Date | null> {
  return escalations.nextEscalationDueAt(ctx.sql);
}

/**
 * The earliest deadline (`due`, perhaps past and held by someone else) and the earliest after `after`
 * (`upcoming`, by default still to come): while the first is held, the reconciler must still wake for
 * the second. A pass asks for the earliest after the moment it last fired, so a deadline that passed
 * during the pass, which it did not try, is one to wake for at once.
 */
export async function findEscalationDeadlines(
  ctx: ServiceContext,
  after: Date = ctx.now(),
): Promise<{ due: Date | null; upcoming: Date | null }> {
  return escalations.escalationDeadlines(ctx.sql, after);
}
