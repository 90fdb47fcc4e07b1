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
  /** The rule's policy, else its integration's; the installation default is resolved after. */
  escalationPolicyId: string | null;
}

export type Diverted =
  | { kind: 'absorbed'; incidentId: string }
  | { kind: 'storm_started'; incident: incidents.IncidentRow };

/**
 * Called when an alert is about to open an incident (never for one that joins a group or an open
 * incident, nor for manual incidents): one storm check in the scope of the policy it would page, then
 * either nothing (null: open the incident as usual), the alert absorbed into that scope's raging storm,
 * or a new storm incident of the scope (docs/api.md#storm-mode). A storm found calm is closed on the way.
 */
export async function divertToStorm(
  tx: Queryable,
  ctx: ServiceContext,
  alert: alerts.AlertRow,
  would: WouldOpen,
  at: Date,
): Promise<Diverted | null> {
  const check = await checkStorm(tx, would.escalationPolicyId, at);
  const decision = decideStorm(check, at);
  if (decision.kind === 'absorb') {
    await absorbIntoStorm(tx, decision.storm, alert, would, at);
    return { kind: 'absorbed', incidentId: decision.storm.id };
  }
  if (decision.calm) await calmStorm(tx, decision.calm, at);
  if (decision.kind === 'open') return null;
  const why = {
    scope: check.scope,
    thresholdIncidents: check.thresholdIncidents,
    windowMinutes: check.windowMinutes,
  };
  return { kind: 'storm_started', incident: await startStorm(tx, ctx, alert, would, why, at) };
}
