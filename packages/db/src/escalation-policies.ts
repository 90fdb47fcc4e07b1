import type { TargetType } from '@firebreak/schema';
import type { Queryable } from './client';
import { groupBy } from './group-by';
import { settingKeys } from './settings';

/**
 * The escalation policy aggregate: a policy, its tiers in notification order, and the users a tier
 * names. Tiers are written whole, like a schedule's layers.
 */

export interface EscalationPolicyRow {
  id: string;
  name: string;
  description: string;
  enabled: boolean;
  repeat: number;
  created_at: Date;
  updated_at: Date;
}

export interface TierUserRow {
  user_id: string | null;
  /** The linked user's current name, else the name kept on the row. */
  name: string;
}

export interface TierRecord {
  position: number;
  target_type: TargetType;
  schedule_id: string | null;
  timeout_seconds: number;
  /** In the order given; empty for a schedule tier. */
  users: TierUserRow[];
}

export interface EscalationPolicyRecord extends EscalationPolicyRow {
  tiers: TierRecord[];
}

export interface NewTier {
  targetType: TargetType;
  scheduleId: string | null;
  timeoutSeconds: number;
  users: Array<{ userId: string | null; name: string }>;
}

export interface PolicyFields {
  name: string;
  description: string;
  enabled: boolean;
  repeat: number;
}

export async function insertPolicy(
  sql: Queryable,
  policy: PolicyFields & { at: Date },
): Promise<EscalationPolicyRow> {
  const [row] = await sql<EscalationPolicyRow[]>`
    insert into escalation_policies (name, description, enabled, repeat, created_at, updated_at)
    values (${policy.name}, ${policy.description}, ${policy.enabled}, ${policy.repeat}, ${policy.at}, ${policy.at})
    returning *`;
  return row!;
}

/** Locks the policy for the rest of the transaction, so concurrent edits of its tiers queue up. */
export async function lockPolicy(sql: Queryable, id: string): Promise<EscalationPolicyRow | undefined> {
  const [row] = await sql<
    EscalationPolicyRow[]
  >`select * from escalation_policies where id = ${id} for update`;
  return row;
}

export async function updatePolicy(
  sql: Queryable,
  id: string,
  changes: Partial<PolicyFields>,
  at: Date,
): Promise<EscalationPolicyRow | undefined> {
  const [row] = await sql<EscalationPolicyRow[]>`
    update escalation_policies set ${sql({ ...changes, updated_at: at } as Record<string, unknown>)}
    where id = ${id}
    returning *`;
  return row;
}

export async function replaceTiers(sql: Queryable, policyId: string, tiers: NewTier[]): Promise<void> {
  await sql`delete from escalation_tiers where policy_id = ${policyId}`;
  if (tiers.length === 0) return;
  const inserted = await sql<{ id: string; position: number }[]>`
    insert into escalation_tiers ${sql(
      tiers.map((tier, position) => ({
        policy_id: policyId,
        position,
        target_type: tier.targetType,
        schedule_id: tier.scheduleId,
        timeout_seconds: tier.timeoutSeconds,
      })) as never,
    )}
    returning id, position`;
  const idOf = new Map(inserted.map((row) => [row.position, row.id]));
  const users = tiers.flatMap((tier, tierPosition) =>
    tier.users.map((user, position) => ({
      tier_id: idOf.get(tierPosition)!,
      position,
      user_id: user.userId,
      name: user.name,
    })),
  );
  if (users.length > 0) await sql`insert into escalation_tier_users ${sql(users as never)}`;
}

/** Policies with their tiers and tier users, by name, in three queries whatever their number. */
export async function findPolicies(
  sql: Queryable,
  filter: { ids?: string[] } = {},
): Promise<EscalationPolicyRecord[]> {
  const policies = await sql<EscalationPolicyRow[]>`
    select * from escalation_policies
    ${filter.ids ? sql`where id = any(${filter.ids}::uuid[])` : sql``}
    order by name, id`;
  if (policies.length === 0) return [];
  const ids = policies.map((policy) => policy.id);
  const tiers = await sql<(Omit<TierRecord, 'users'> & { id: string; policy_id: string })[]>`
    select id, policy_id, position, target_type, schedule_id, timeout_seconds
    from escalation_tiers where policy_id = any(${ids}::uuid[])
    order by policy_id, position`;
  const users = await sql<(TierUserRow & { tier_id: string })[]>`
    select tu.tier_id, tu.user_id, coalesce(u.name, tu.name) as name
    from escalation_tier_users tu
    join escalation_tiers t on t.id = tu.tier_id
    left join users u on u.id = tu.user_id
    where t.policy_id = any(${ids}::uuid[])
    order by tu.tier_id, tu.position`;
  const usersOf = groupBy(users, (row) => row.tier_id);
  const tiersOf = groupBy(tiers, (row) => row.policy_id);
  return policies.map((policy) => ({
    ...policy,
    tiers: (tiersOf.get(policy.id) ?? []).map(({ id, policy_id: _, ...tier }) => ({
      ...tier,
      users: (usersOf.get(id) ?? []).map(({ user_id, name }) => ({ user_id, name })),
    })),
  }));
}

export async function findPolicy(sql: Queryable, id: string): Promise<EscalationPolicyRecord | undefined> {
  const [policy] = await findPolicies(sql, { ids: [id] });
  return policy;
}

export async function policyExists(sql: Queryable, id: string): Promise<boolean> {
  const [found] = await sql`select 1 from escalation_policies where id = ${id}`;
  return found !== undefined;
}

export async function deletePolicy(sql: Queryable, id: string): Promise<boolean> {
  const result = await sql`delete from escalation_policies where id = ${id}`;
  return result.count > 0;
}

/** Before a user is deleted: keeps their current name on the tiers that name them (see schedules). */
export async function keepTierUserNames(sql: Queryable, userId: string): Promise<void> {
  await sql`
    update escalation_tier_users tu set name = u.name
    from users u where u.id = ${userId} and tu.user_id = u.id`;
}

export interface PolicyReferences {
  /** Names of the routing rules whose actions send incidents to the policy. */
  routingRules: string[];
  /** Whether it is the installation's default (`settingKeys.defaultEscalationPolicy`). */
  isDefault: boolean;
}

/** What still sends new incidents to this policy; such a policy is not deleted from under them. */
export async function findPolicyReferences(sql: Queryable, id: string): Promise<PolicyReferences> {
  const rules = await sql<{ name: string }[]>`
    select name from routing_rules where actions ->> 'escalation_policy_id' = ${id} order by name`;
  const [setting] = await sql<{ found: boolean }[]>`
    select exists (
      select 1 from settings where key = ${settingKeys.defaultEscalationPolicy} and value #>> '{}' = ${id}
    ) as found`;
  return { routingRules: rules.map((rule) => rule.name), isDefault: setting?.found ?? false };
}
