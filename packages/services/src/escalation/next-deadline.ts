import { escalations } from '@firebreak/db';
import type { ServiceContext } from '../context';

/** When the next escalation step falls due (null: none is running); the reconciler sleeps until then. */
export async function findNextEscalationDeadline(ctx: ServiceContext): Promise<Date | null> {
  return escalations.nextEscalationDueAt(ctx.sql);
}
