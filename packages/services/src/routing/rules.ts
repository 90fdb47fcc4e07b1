import { escalationPolicies, integrations, routingRules } from '@firebreak/db';
import { byEvaluationOrder, firstMatchingRule, incidentSeverityFor } from '@firebreak/domain';
import {
  AppError,
  type CreateRoutingRuleInput,
  type MatchCriteria,
  type RoutingPreviewInput,
  type RoutingRule,
  type RuleActions,
  type UpdateRoutingRuleInput,
} from '@firebreak/schema';
import { type ChangeOrigin, recordAudit, systemOrigin } from '../audit';
import type { ServiceContext } from '../context';

function present(row: routingRules.RoutingRuleRow): RoutingRule {
  return {
    id: row.id,
    name: row.name,
    priority: row.priority,
    enabled: row.enabled,
    match_criteria: row.match_criteria,
    actions: row.actions,
    created_at: row.created_at.toISOString(),
  };
}

const notFound = (id: string) => new AppError('not_found', `No routing rule ${id}.`);

/** In evaluation order (docs/api.md#routing-rules), disabled rules included. */
export async function listRoutingRules(ctx: ServiceContext): Promise<RoutingRule[]> {
  return (await routingRules.listRoutingRules(ctx.sql)).sort(byEvaluationOrder).map(present);
}

export async function getRoutingRule(ctx: ServiceContext, id: string): Promise<RoutingRule> {
  const row = await routingRules.findRoutingRule(ctx.sql, id);
  if (!row) throw notFound(id);
  return present(row);
}

/** A rule may only name a policy that exists (an incident it opens would otherwise fail to insert). */
async function requirePolicy(ctx: ServiceContext, actions: RuleActions | undefined): Promise<void> {
  const id = actions?.escalation_policy_id;
  if (!id) return;
  if (!(await escalationPolicies.policyExists(ctx.sql, id))) {
    throw new AppError('validation_failed', 'The request is not valid.', [
      { path: 'actions.escalation_policy_id', message: 'no escalation policy has this id' },
    ]);
  }
}

/** A rule may only match integrations that exist: a typo would otherwise never match, silently. */
async function requireIntegrations(ctx: ServiceContext, criteria: MatchCriteria | undefined): Promise<void> {
  const named = criteria?.integration_id;
  if (named === undefined) return;
  const ids = Array.isArray(named) ? named : [named];
  const found = await integrations.existingIntegrationIds(ctx.sql, ids);
  const problems = ids.flatMap((id, index) =>
    found.has(id)
      ? []
      : [
          {
            path: Array.isArray(named)
              ? `match_criteria.integration_id[${index}]`
              : 'match_criteria.integration_id',
            message: 'no integration has this id',
          },
        ],
  );
  if (problems.length > 0) throw new AppError('validation_failed', 'The request is not valid.', problems);
}

export async function createRoutingRule(
  ctx: ServiceContext,
  input: CreateRoutingRuleInput,
  origin: ChangeOrigin = systemOrigin,
): Promise<RoutingRule> {
  await requirePolicy(ctx, input.actions);
  await requireIntegrations(ctx, input.match_criteria);
  const row = await ctx.sql.begin(async (tx) => {
    const inserted = await routingRules.insertRoutingRule(tx, input, ctx.now());
    await recordAudit(tx, ctx, {
      origin,
      entity: 'routing_rule',
      entityId: inserted.id,
      action: 'create',
      before: null,
      after: present(inserted),
    });
    return inserted;
  });
  ctx.logger.info({ routing_rule_id: row.id, priority: row.priority }, 'routing rule created');
  return present(row);
}

export async function updateRoutingRule(
  ctx: ServiceContext,
  id: string,
  input: UpdateRoutingRuleInput,
  origin: ChangeOrigin = systemOrigin,
): Promise<RoutingRule> {
  await requirePolicy(ctx, input.actions);
  await requireIntegrations(ctx, input.match_criteria);
  const row = await ctx.sql.begin(async (tx) => {
    const before = await routingRules.lockRoutingRule(tx, id);
    if (!before) throw notFound(id);
    const after = (await routingRules.updateRoutingRule(tx, id, input, ctx.now()))!;
    await recordAudit(tx, ctx, {
      origin,
      entity: 'routing_rule',
      entityId: id,
      action: 'update',
      before: present(before),
      after: present(after),
    });
    return after;
  });
  ctx.logger.info({ routing_rule_id: id }, 'routing rule updated');
  return present(row);
}

export async function deleteRoutingRule(
  ctx: ServiceContext,
  id: string,
  origin: ChangeOrigin = systemOrigin,
): Promise<void> {
  await ctx.sql.begin(async (tx) => {
    const before = await routingRules.lockRoutingRule(tx, id);
    if (!before) throw notFound(id);
    await routingRules.deleteRoutingRule(tx, id);
    await recordAudit(tx, ctx, {
      origin,
      entity: 'routing_rule',
      entityId: id,
      action: 'delete',
      before: present(before),
      after: null,
    });
  });
  ctx.logger.info({ routing_rule_id: id }, 'routing rule deleted');
}

/** "Which rule would take this alert, and what would happen?" — for the rules editor; changes nothing. */
export async function previewRouting(ctx: ServiceContext, sample: RoutingPreviewInput) {
  const rules = (await routingRules.listRoutingRules(ctx.sql, { enabledOnly: true })).sort(byEvaluationOrder);
  const rule = firstMatchingRule(rules, sample);
  if (!rule) return { rule: null, outcome: 'stored without incident (no rule matches)' };
  const { actions } = rule;
  const outcome = actions.suppress
    ? 'suppressed'
    : actions.create_incident
      ? `incident (${incidentSeverityFor(sample.severity, actions.severity)})${actions.group_by ? `, grouped by ${actions.group_by.join(', ')}` : ''}`
      : 'stored without incident (the rule has no action)';
  return { rule: present(rule), outcome };
}
