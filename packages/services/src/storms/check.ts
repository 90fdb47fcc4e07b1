import { type Queryable, storms } from '@firebreak/db';
import type { StormCheck } from '@firebreak/domain';

/**
 * The storm check in the domain's terms, in the scope of the escalation policy the would-be incident
 * pages (`rulePolicyId`: its rule's, else its integration's, before the installation default). A
 * scope's storm decisions are made one at a time under a lock of that scope, but only when one may be
 * due: with no storm open in the scope and fewer of its openings in the window than the threshold
 * (every opening outside a storm), the unlocked read decides and openings do not wait for each other —
 * a lock held to the commit would make every incident opening of the installation commit one at a
 * time. The price: openings that arrive at the very same moment as the threshold is crossed may each
 * open their incident before the first storm decision, so a burst can overshoot the threshold by up to
 * the openings of the transactions in flight (docs/decisions.md#alert-storms).
 */
export async function checkStorm(tx: Queryable, rulePolicyId: string | null, at: Date): Promise<StormCheck> {
  const peek = fromRow(await storms.readStormCheck(tx, at, { rulePolicyId, locked: false }));
  if (!peek.enabled || (peek.storm === null && peek.recentIncidents < peek.thresholdIncidents)) return peek;
  return fromRow(await storms.readStormCheck(tx, at, { rulePolicyId, locked: true }));
}

/**
 * For openings about to happen together (one per entry of `rulePolicyIds`, in the scope of the policy
 * each would page), the rule policies whose openings may all open without a storm decision: storm
 * mode is off, or their scope has no open storm and stays within the threshold counting every one of
 * the scope's openings here (`checkStorm` would then answer "open" to each in turn, as its unlocked
 * read does). The others go through `checkStorm` one at a time. One unlocked read per rule policy,
 * pipelined.
 */
export async function openingsWithoutStorm(
  tx: Queryable,
  rulePolicyIds: ReadonlyArray<string | null>,
  at: Date,
): Promise<Set<string | null>> {
  const distinct = [...new Set(rulePolicyIds)];
  const checks = await Promise.all(
    distinct.map(async (rulePolicyId) =>
      fromRow(await storms.readStormCheck(tx, at, { rulePolicyId, locked: false })),
    ),
  );
  // Two rule policies may page the same scope (no policy of its own, or the installation default).
  const openingsInScope = new Map<string, number>();
  distinct.forEach((rulePolicyId, i) => {
    const count = rulePolicyIds.filter((id) => id === rulePolicyId).length;
    openingsInScope.set(checks[i]!.scope, (openingsInScope.get(checks[i]!.scope) ?? 0) + count);
  });
  return new Set(
    distinct.filter((_, i) => {
      const check = checks[i]!;
      if (!check.enabled) return true;
      const openings = openingsInScope.get(check.scope)!;
      return check.storm === null && check.recentIncidents + openings <= check.thresholdIncidents;
    }),
  );
}

function fromRow(row: storms.StormCheckRow): StormCheck {
  return {
    enabled: row.enabled,
    thresholdIncidents: row.threshold_incidents,
    windowMinutes: row.window_minutes,
    calmMinutes: row.calm_minutes,
    scope: row.scope,
    recentIncidents: row.recent_incidents,
    storm:
      row.storm_id === null
        ? null
        : {
            id: row.storm_id,
            status: row.storm_status!,
            severity: row.storm_severity!,
            title: row.storm_title!,
            resolvedAt: row.storm_resolved_at,
            lastAbsorbedAt: row.storm_last_absorbed_at!,
            absorbedAlerts: row.storm_absorbed_alerts!,
          },
  };
}
