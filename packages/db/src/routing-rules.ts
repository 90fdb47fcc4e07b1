import type { MatchCriteria, RuleActions } from '@firebreak/schema';
import type { Queryable } from './client';

export interface RoutingRuleRow {
  id: string;
  name: string;
  priority: number;
  enabled: boolean;
  match_criteria: MatchCriteria;
  actions: RuleActions;
  created_at: Date;
  updated_at: Date;
}

/** All rules in evaluation order: ascending priority, ties oldest first (docs/api.md#routing-rules). */
export async function listRoutingRules(sql: Queryable, options: { enabledOnly?: boolean } = {}) {
  return sql<RoutingRuleRow[]>`
    select * from routing_rules
    ${options.enabledOnly ? sql`where enabled` : sql``}
    order by priority, created_at, id`;
}

export async function findRoutingRule(sql: Queryable, id: string): Promise<RoutingRuleRow | undefined> {
  const [row] = await sql<RoutingRuleRow[]>`select * from routing_rules where id = ${id}`;
  return row;
}

/** The rule, locked until the transaction ends: its audit row's `before` is then what the change replaced. */
export async function lockRoutingRule(sql: Queryable, id: string): Promise<RoutingRuleRow | undefined> {
  const [row] = await sql<RoutingRuleRow[]>`select * from routing_rules where id = ${id} for update`;
  return row;
}

export interface RoutingRuleFields {
  name: string;
  priority: number;
  enabled: boolean;
  match_criteria: MatchCriteria;
  actions: RuleActions;
}

export async function insertRoutingRule(
  sql: Queryable,
  rule: RoutingRuleFields,
  at: Date,
): Promise<RoutingRuleRow> {
  const [row] = await sql<RoutingRuleRow[]>`
    insert into routing_rules (name, priority, enabled, match_criteria, actions, created_at, updated_at)
    values (${rule.name}, ${rule.priority}, ${rule.enabled}, ${sql.json(rule.match_criteria as never)},
            ${sql.json(rule.actions as never)}, ${at}, ${at})
    returning *`;
  return row!;
}

export async function updateRoutingRule(
  sql: Queryable,
  id: string,
  changes: Partial<RoutingRuleFields>,
  at: Date,
): Promise<RoutingRuleRow | undefined> {
  const set: Record<string, unknown> = { updated_at: at };
  if (changes.name !== undefined) set.name = changes.name;
  if (changes.priority !== undefined) set.priority = changes.priority;
  if (changes.enabled !== undefined) set.enabled = changes.enabled;
  if (changes.match_criteria !== undefined) set.match_criteria = sql.json(changes.match_criteria as never);
  if (changes.actions !== undefined) set.actions = sql.json(changes.actions as never);
  const [row] = await sql<RoutingRuleRow[]>`
    update routing_rules set ${sql(set as never)} where id = ${id} returning *`;
  return row;
}

export async function deleteRoutingRule(sql: Queryable, id: string): Promise<boolean> {
  const result = await sql`delete from routing_rules where id = ${id}`;
  return result.count > 0;
}
