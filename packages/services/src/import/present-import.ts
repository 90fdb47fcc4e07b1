import type { ImportPlan, PlannedPerson } from '@firebreak/domain';
import type { ImportResult } from '@firebreak/schema';
import type { ImportIds } from './write-plan';

/**
 * The answer (docs/import-oncall.md#the-answer), the same for a dry run and a real import but for the ids and
 * tokens, which only a real import creates. Records are shown as the API shows them, without time stamps.
 */
export function presentImport(plan: ImportPlan, ids: ImportIds, dryRun: boolean): ImportResult {
  const idOf = (person: PlannedPerson) => (person.email ? (ids.userIds.get(person.email) ?? null) : null);
  return {
    dry_run: dryRun,
    summary: plan.summary,
    users: plan.users.map((user) => ({
      id: ids.userIds.get(user.email) ?? null,
      email: user.email,
      name: user.name,
      role: user.role,
      slack_user_id: user.slackUserId,
      auth_source: 'local',
      active: true,
    })),
    schedules: plan.schedules.map((schedule) => ({
      id: ids.scheduleIds.get(schedule.sourceId) ?? null,
      name: schedule.name,
      timezone: schedule.timezone,
      layers: schedule.layers.map((layer) => ({
        name: layer.name,
        order_index: layer.orderIndex,
        rotation_start: layer.rotationStart.toISOString(),
        shift_duration_seconds: layer.shiftDurationSeconds,
        rotation_type: layer.rotationType,
        participants: layer.participants.map((person) => ({ user_id: idOf(person), name: person.name })),
      })),
    })),
    escalation_policies: plan.escalationPolicies.map((policy) => ({
      id: ids.policyIds.get(policy.sourceId) ?? null,
      name: policy.name,
      description: policy.description,
      enabled: policy.enabled,
      repeat: policy.repeat ?? 0,
      tiers: policy.tiers.map((tier) => ({
        target_type: tier.targetType,
        user_ids: tier.users.map(idOf),
        user_names: tier.users.map((person) => person.name),
        schedule_id: tier.schedule ? (ids.scheduleIds.get(tier.schedule.sourceId) ?? null) : null,
        schedule_name: tier.schedule?.name ?? null,
        timeout_seconds: tier.timeoutSeconds,
      })),
    })),
    conflicts: plan.conflicts,
    warnings: plan.warnings,
    integrations: plan.integrations.map(({ keyedSourceId, ...entry }) => ({
      ...entry,
      integration_id: keyedSourceId ? (ids.integrationIds.get(keyedSourceId) ?? null) : null,
    })),
    setup_tokens: plan.users.map((user) => ({
      email: user.email,
      token: ids.setupTokens.get(user.email) ?? null,
    })),
  };
}
