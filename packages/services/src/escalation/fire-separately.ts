import { isDatabaseUnavailable } from '@firebreak/db';
import type { ServiceContext } from '../context';
import { runEscalation } from './run-escalation';
import { noteEscalationFailed, noteEscalationRan } from './step-failures';

/**
 * Fires these incidents' due steps one transaction each, through `runEscalation`, which waits for
 * their locks (incident, then escalation). What fails is logged and left, so one step that cannot
 * fire does not hold back the others; a database outage is thrown, since nothing else would fire
 * either. Returns how many steps fired.
 */
export async function fireSeparately(ctx: ServiceContext, incidentIds: readonly string[]): Promise<number> {
  let fired = 0;
  for (const incidentId of incidentIds) {
    try {
      if ((await runEscalation(ctx, incidentId)).fired) fired++;
      noteEscalationRan(ctx, incidentId);
    } catch (error) {
      if (isDatabaseUnavailable(error)) throw error;
      noteEscalationFailed(ctx, incidentId, error);
    }
  }
  return fired;
}
