import type { alerts, incidents, Queryable } from '@firebreak/db';
import { decideStorm } from '@firebreak/domain';
import type { IncidentSeverity } from '@firebreak/schema';
import type { ServiceContext } from '../context';
import { absorbIntoStorm } from './absorb';
import { calmStorm } from './calm';
import { checkStorm } from './check';
import { startStorm } from './start';

/** The incident an alert would open, as its routing rule decided. */
export interface WouldOpen {
  severity: IncidentSeverity;
  routingRuleId: string;
  escalationPolicyId: string | null;
}

export type Diverted =
  | { kind: 'absorbed'; incidentId: string }
  | { kind: 'storm_started'; incident: incidents.IncidentRow };

/**
 * Called when an alert is about to open an incident (never for one that joins a group or an open
 * incident, nor for manual incidents): one storm check, then either nothing (null: open the incident
 * as usual), the alert absorbed into the raging storm, or a new storm incident (docs/api.md#storm-mode).
 * A storm found calm is closed on the way.
 */
export async function divertToStorm(
  tx: Queryable,
  ctx: ServiceContext,
  alert: alerts.AlertRow,
  would: WouldOpen,
  at: Date,
): Promise<Diverted | null> {
  const check = await checkStorm(tx, at);
  const decision = decideStorm(check, at);
  if (decision.kind === 'absorb') {
    await absorbIntoStorm(tx, decision.storm, alert, would, at);
    return { kind: 'absorbed', incidentId: decision.storm.id };
  }
  if (decision.calm) await calmStorm(tx, decision.calm, at);
  if (decision.kind === 'open') return null;
  const why = { thresholdIncidents: check.thresholdIncidents, windowMinutes: check.windowMinutes };
  return { kind: 'storm_started', incident: await startStorm(tx, ctx, alert, would, why, at) };
}
