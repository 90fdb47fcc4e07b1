import { type escalationPolicies, type Queryable, schedules } from '@firebreak/db';
import type { TierInput, ValidationIssue } from '@firebreak/schema';
import { type PersonReference, resolvePeople, throwIfInvalid } from './resolve-people';

/**
 * The tiers of a create or update request as rows to write: users resolved (by id, by name, or as the
 * id/name pairs a read shows), schedules checked to exist. Problems are 400 at their path, e.g.
 * `tiers[1].user_names[0]` or `tiers[2].schedule_id`.
 */
export async function toNewTiers(sql: Queryable, tiers: TierInput[]): Promise<escalationPolicies.NewTier[]> {
  const wanted = tiers.flatMap((tier) =>
    tier.target_type === 'schedule' && tier.schedule_id ? [tier.schedule_id] : [],
  );
  const existing = await schedules.existingScheduleIds(sql, [...new Set(wanted)]);
  const scheduleIssues: ValidationIssue[] = tiers.flatMap((tier, t) =>
    tier.target_type === 'schedule' && tier.schedule_id && !existing.has(tier.schedule_id)
      ? [{ path: `tiers[${t}].schedule_id`, message: 'no schedule has this id' }]
      : [],
  );
  const referencesOf = tiers.map((tier, t) => (tier.target_type === 'users' ? userReferences(tier, t) : []));
  const { people, issues } = await resolvePeople(sql, referencesOf.flat());
  throwIfInvalid([...scheduleIssues, ...issues]);
  let next = 0;
  return tiers.map((tier, t) => ({
    targetType: tier.target_type,
    scheduleId: tier.target_type === 'schedule' ? (tier.schedule_id ?? null) : null,
    timeoutSeconds: tier.timeout_seconds,
    users: referencesOf[t]!.map(() => people[next++]!),
  }));
}

function userReferences(tier: TierInput, t: number): PersonReference[] {
  const ids = tier.user_ids ?? [];
  const names = tier.user_names ?? [];
  if (ids.length > 0 && names.length > 0) {
    // Pairs, as a read shows them: the id decides, a null id keeps the name without an account.
    return ids.map((userId, i) => ({ path: `tiers[${t}].user_ids[${i}]`, userId, name: names[i] }));
  }
  if (ids.length > 0) return ids.map((userId, i) => ({ path: `tiers[${t}].user_ids[${i}]`, userId }));
  return names.map((name, i) => ({ path: `tiers[${t}].user_names[${i}]`, name }));
}

export function policyConflicts(name: string | undefined): Record<string, string> {
  return { escalation_policies_name_key: `An escalation policy named "${name ?? ''}" already exists.` };
}
