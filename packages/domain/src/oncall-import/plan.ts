import type { OnCallSource } from '@firebreak/schema';
import { planIntegrations } from './integrations';
import { planPolicies } from './policies';
import { planSchedules } from './schedules';
import type { ExistingRecords, ImportPlan } from './types';
import { planUsers } from './users';

/**
 * The whole mapping of a Grafana OnCall organisation onto this service
 * (docs/import-oncall.md#what-is-imported-and-how), given what already exists here. Pure: a dry run and a
 * real import compute the same plan, and only the real one writes it. `now` decides which rotations have
 * already ended.
 */
export function planOnCallImport(source: OnCallSource, existing: ExistingRecords, now: Date): ImportPlan {
  const users = planUsers(source.users, existing);
  const schedules = planSchedules(source.schedules, source.on_call_shifts, users.people, existing, now);
  const policies = planPolicies(
    source.escalation_chains,
    source.escalation_policies,
    {
      people: users.people,
      schedules: new Map(schedules.schedules.map((schedule) => [schedule.sourceId, schedule.name])),
    },
    existing,
  );
  return {
    users: users.users,
    schedules: schedules.schedules,
    escalationPolicies: policies.escalationPolicies,
    // OnCall's integrations keep no key a sender could reuse: each is only pointed at a webhook.
    keyedIntegrations: [],
    conflicts: [...users.conflicts, ...schedules.conflicts, ...policies.conflicts],
    warnings: [...users.warnings, ...schedules.warnings, ...policies.warnings],
    integrations: planIntegrations(source.integrations),
    summary: {
      users: { created: users.users.length, skipped: users.conflicts.length },
      schedules: { created: schedules.schedules.length, skipped: schedules.skipped },
      escalation_policies: {
        created: policies.escalationPolicies.length,
        skipped: policies.conflicts.length,
      },
      integrations: { created: 0, skipped: 0 },
    },
  };
}
