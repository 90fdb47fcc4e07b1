import { escalations } from '@firebreak/db';
import type { ServiceContext } from '../context';

/** When the next escalation step falls due (null: none is running); the reconciler sleeps until then. */
export async function findNextEscalationDeadline(ctx: ServiceContext): Promise<Date | null> {
  return escalations.nextEscalationDueAt(ctx.sql);
}

/**
 * The earliest deadline (`due`, perhaps past and held by someone else) and the earliest still to come
 * (`upcoming`): while the first is held, the reconciler must still wake for the second.
 */
export async function findEscalationDeadlines(
  ctx: ServiceContext,
): Promise<{ due: Date | null; upcoming: Date | null }> {
  return escalations.escalationDeadlines(ctx.sql, ctx.now());
}
