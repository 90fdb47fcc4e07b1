import { randomUUID } from 'node:crypto';
import {
  type alertBatches,
  alerts,
  incidents,
  type maintenanceWindows,
  type Queryable,
  type routingRules,
} from '@firebreak/db';
import {
  firstMatchingRule,
  holdingWindow,
  incidentGroupKey,
  incidentSeverityFor,
  type MaintainableAlert,
  type RoutableAlert,
} from '@firebreak/domain';
import { type AlertStatus, DEFAULT_GROUP_WINDOW_SECONDS } from '@firebreak/schema';
import type { ServiceContext } from '../context';
import { type AlertOpening, openIncident } from '../incidents/create';
import { divertToStorm, type WouldOpen } from '../storms/divert';
import { intakeActor, linkAlert } from './link';

export type RoutingOutcome =
  | { kind: 'unrouted' }
  | { kind: 'matched'; ruleId: string }
  | { kind: 'suppressed'; ruleId: string }
  | { kind: 'grouped'; ruleId: string; incidentId: string }
  /** Would have opened an incident, but joined the storm incident (docs/api.md#storm-mode). */
  | { kind: 'absorbed'; ruleId: string; incidentId: string }
  | { kind: 'opened'; ruleId: string; incident: incidents.IncidentRow };

// Incident titles are shorter than alert titles.
const INCIDENT_TITLE_MAX = 500;

/** The incident the alert was linked to, if any. */
export function incidentOf(outcome: RoutingOutcome): string | null {
  if (outcome.kind === 'opened') return outcome.incident.id;
  if (outcome.kind === 'grouped' || outcome.kind === 'absorbed') return outcome.incidentId;
  return null;
}

/**
 * The pre-link a new alert's insert carries when routing is about to open an incident for it: it fires,
 * no maintenance window holds it, and its first matching rule opens incidents. The incident's id is
 * chosen now; `routeAlert` uses it if the alert does open its own incident, and writes over it if the
 * alert joins a group or a storm instead (as it would link an unlinked alert). Inserting it linked
 * spares the opening an update of the row it has just written, which rewrote every index entry of the
 * alert (docs/decisions.md#incident-opening-in-two-round-trips).
 */
export function preLinkFor(
  alert: { status: AlertStatus } & RoutableAlert & MaintainableAlert,
  rules: readonly routingRules.RoutingRuleRow[],
  windows: readonly maintenanceWindows.MaintenanceWindowRow[],
): alertBatches.AlertPreLink | null {
  if (alert.status !== 'firing' || holdingWindow(windows, alert)) return null;
  const rule = firstMatchingRule(rules, alert);
  if (!rule?.actions.create_incident || rule.actions.suppress) return null;
  return { incidentId: randomUUID(), routingRuleId: rule.id };
}

/**
 * Routes a firing alert (docs/api.md#routing-rules): the first enabled rule that matches decides. No match:
 * the alert is stored and nothing else happens. `suppress`: stored, marked suppressed. `create_incident`:
 * linked to an open incident of the same group within the window when the rule groups (its `group_by`
 * labels, else the sender's own group unless the rule splits them), else linked to a new incident (title
 * and mapped severity from the alert), paged through the rule's escalation policy or, when the rule names
 * none, `fallbackPolicyId` (the policy of the integration the alert came through) — unless a storm takes
 * it (docs/api.md#storm-mode).
 *
 * `preLinked`: the alert was just inserted already linked to the incident it would open (its id chosen
 * by the intake, `preLinkFor`). Opening as usual, that incident takes the id; every other outcome
 * writes the alert's routing over it, as for any alert.
 */
export async function routeAlert(
  tx: Queryable,
  ctx: ServiceContext,
  alert: alerts.AlertRow,
  rules: readonly routingRules.RoutingRuleRow[],
  at: Date,
  fallbackPolicyId: string | null = null,
  preLinked: alertBatches.AlertPreLink | null = null,
): Promise<RoutingOutcome> {
  const rule = firstMatchingRule(rules, alert);
  if (!rule) {
    // A new alert already has no routing; only a re-fired one may carry an old rule's marks.
    if (alert.routing_rule_id !== null || alert.suppressed || alert.incident_id !== null) {
      await alerts.setAlertRouting(tx, alert.id, {
        incidentId: null,
        routingRuleId: null,
        suppressed: false,
      });
    }
    return { kind: 'unrouted' };
  }
  const { actions } = rule;
  if (actions.suppress) {
    await alerts.setAlertRouting(tx, alert.id, {
      incidentId: null,
      routingRuleId: rule.id,
      suppressed: true,
    });
    return { kind: 'suppressed', ruleId: rule.id };
  }
  if (!actions.create_incident) {
    await alerts.setAlertRouting(tx, alert.id, {
      incidentId: null,
      routingRuleId: rule.id,
      suppressed: false,
    });
    return { kind: 'matched', ruleId: rule.id };
  }
  const group = incidentGroupKey(actions, alert);
  if (group !== null) {
    // One opener per group at a time. (No path holds this lock and then waits for alert rows, so it
    // adds no lock-order cycle; an alert's storm check takes its lock after this one, never before.)
    await incidents.lockGroupOpening(tx, rule.id, group);
    const windowMs = (actions.group_window_seconds ?? DEFAULT_GROUP_WINDOW_SECONDS) * 1000;
    const open = await incidents.findOpenGroupIncident(tx, {
      routingRuleId: rule.id,
      groupKey: group,
      since: new Date(at.getTime() - windowMs),
    });
    if (open) {
      await linkAlert(tx, alert, open.id, { routingRuleId: rule.id, at });
      if (open.all_alerts_resolved) await incidents.setAllAlertsResolved(tx, open.id, false, at);
      return { kind: 'grouped', ruleId: rule.id, incidentId: open.id };
    }
  }
  const would = wouldOpen(alert, rule, fallbackPolicyId);
  const storm = await divertToStorm(tx, ctx, alert, would, at);
  if (storm?.kind === 'absorbed') return { kind: 'absorbed', ruleId: rule.id, incidentId: storm.incidentId };
  if (storm?.kind === 'storm_started') return { kind: 'opened', ruleId: rule.id, incident: storm.incident };
  const { input, options } = alertOpening(alert, rule, group, would, preLinked);
  const incident = await openIncident(tx, ctx, intakeActor, input, options);
  return { kind: 'opened', ruleId: rule.id, incident };
}

/**
 * The incident a firing alert opens by its own routing and nothing else, or undefined when its routing
 * is anything else: its first matching rule opens incidents (the one its pre-link was chosen for, so
 * no maintenance window holds it) and does not group it. Whether a storm takes it instead is for the
 * caller to ask (`openingsWithoutStorm`); `routeAlert` does both for one alert.
 */
export function plainAlertOpening(
  alert: alerts.AlertRow,
  rules: readonly routingRules.RoutingRuleRow[],
  preLinked: alertBatches.AlertPreLink,
  fallbackPolicyId: string | null,
): AlertOpening | undefined {
  const rule = firstMatchingRule(rules, alert);
  if (!rule || rule.id !== preLinked.routingRuleId) return undefined;
  const { actions } = rule;
  if (actions.suppress || !actions.create_incident || incidentGroupKey(actions, alert) !== null)
    return undefined;
  return alertOpening(alert, rule, null, wouldOpen(alert, rule, fallbackPolicyId), preLinked);
}

function wouldOpen(
  alert: alerts.AlertRow,
  rule: routingRules.RoutingRuleRow,
  fallbackPolicyId: string | null,
): WouldOpen {
  return {
    severity: incidentSeverityFor(alert.severity, rule.actions.severity),
    routingRuleId: rule.id,
    escalationPolicyId: rule.actions.escalation_policy_id ?? fallbackPolicyId,
  };
}

function alertOpening(
  alert: alerts.AlertRow,
  rule: routingRules.RoutingRuleRow,
  group: string | null,
  would: WouldOpen,
  preLinked: alertBatches.AlertPreLink | null,
): AlertOpening {
  return {
    input: {
      title: alert.title.slice(0, INCIDENT_TITLE_MAX),
      severity: would.severity,
      description: alert.description ?? '',
    },
    options: {
      source: 'alert',
      routingRuleId: rule.id,
      escalationPolicyId: would.escalationPolicyId,
      openedByAlertId: alert.id,
      groupKey: group,
      linkAlert: { alert, routingRuleId: rule.id },
      ...(preLinked?.routingRuleId === rule.id ? { preLinkedId: preLinked.incidentId } : {}),
    },
  };
}
