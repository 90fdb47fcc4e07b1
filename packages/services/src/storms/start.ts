import { randomUUID } from 'node:crypto';
import { type alerts, type incidents, outbox, type Queryable, storms, timeline } from '@firebreak/db';
import { stormTitle } from '@firebreak/domain';
import type { IncidentSeverity } from '@firebreak/schema';
import { intakeActor, linkAlert } from '../alerts/link';
import type { ServiceContext } from '../context';
import { chatJobs } from '../incidents/chat-jobs';
import { openIncident } from '../incidents/create';

/**
 * Opens the storm incident of a scope with its first absorbed alert: one incident, so one chat channel
 * and one page, through the escalation policy that alert's own incident would have been paged through —
 * the scope's policy, since the scope is that policy.
 */
export async function startStorm(
  tx: Queryable,
  ctx: ServiceContext,
  alert: alerts.AlertRow,
  would: { severity: IncidentSeverity; routingRuleId: string; escalationPolicyId: string | null },
  why: { scope: string; thresholdIncidents: number; windowMinutes: number },
  at: Date,
): Promise<incidents.IncidentRow> {
  return openIncident(
    tx,
    ctx,
    intakeActor,
    {
      title: stormTitle(1),
      severity: would.severity,
      description:
        'More incidents opened from alerts than storm mode allows within its window: further alerts ' +
        'that would each open an incident are linked here until the storm calms.',
    },
    {
      source: 'alert',
      routingRuleId: would.routingRuleId,
      escalationPolicyId: would.escalationPolicyId,
      openedByAlertId: alert.id,
      // Started together with the opening's writes: these statements queue behind them, in order.
      completeOpening: async ({ id }) => {
        // The channel hears that this is a storm (the entry's id is chosen here, so its post need not wait).
        const startedEntryId = randomUUID();
        await Promise.all([
          storms.markStormStarted(tx, id, why.scope, at),
          timeline.insertTimelineEntry(tx, {
            id: startedEntryId,
            incidentId: id,
            type: 'storm_started',
            actor: intakeActor,
            data: {
              first_alert_id: alert.id,
              threshold_incidents: why.thresholdIncidents,
              window_minutes: why.windowMinutes,
            },
            at,
          }),
          outbox.insertOutboxRows(tx, [chatJobs.postEntry(id, startedEntryId)]),
          linkAlert(tx, alert, id, { routingRuleId: would.routingRuleId, at }),
        ]);
      },
    },
  );
}
