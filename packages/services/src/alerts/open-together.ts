import type { alertBatches, alerts, incidents, routingRules, TransactionSql } from '@firebreak/db';
import type { ServiceContext } from '../context';
import { openAlertIncidents } from '../incidents/create';
import { openingsWithoutStorm } from '../storms/check';
import { plainAlertOpening } from './route-alert';

/**
 * Opens at once the incidents that a batch's new alerts each open by their own routing (no group, no
 * storm to decide), in the same two round trips however many they are (`openAlertIncidents`): a
 * request of many distinct failures, or many requests recorded in company
 * (docs/decisions.md#intake-in-company). Returns the incident opened for each such alert, by the
 * alert's id; every other alert is routed one at a time afterwards, as is a lone opening (the storm
 * check of those sees these incidents, so the threshold counts them).
 */
export async function openPlainIncidentsTogether(
  tx: TransactionSql,
  ctx: ServiceContext,
  stored: ReadonlyArray<{
    kind: string;
    alert: alerts.AlertRow;
    preLinked?: alertBatches.AlertPreLink | null;
  }>,
  rules: readonly routingRules.RoutingRuleRow[],
  fallbackPolicyId: string | null,
  at: Date,
): Promise<Map<string, incidents.IncidentRow>> {
  const openings = stored.flatMap(({ kind, alert, preLinked }) => {
    if (kind !== 'created' || alert.status !== 'firing' || !preLinked) return [];
    const opening = plainAlertOpening(alert, rules, preLinked, fallbackPolicyId);
    return opening ? [opening] : [];
  });
  if (openings.length < 2) return new Map();
  const policyOf = (opening: (typeof openings)[number]) => opening.options.escalationPolicyId ?? null;
  const withoutStorm = await openingsWithoutStorm(tx, openings.map(policyOf), at);
  const together = openings.filter((opening) => withoutStorm.has(policyOf(opening)));
  if (together.length < 2) return new Map();
  const rows = await openAlertIncidents(tx, ctx, together);
  return new Map(together.map((opening, i) => [opening.options.linkAlert.alert.id, rows[i]!]));
}
