import type { PagerDutySource } from '@firebreak/schema';
import { planKeyedIntegrations } from '../oncall-import/keyed-integrations';
import type { ExistingRecords, ImportPlan } from '../oncall-import/types';
import { planPagerDutyIntegrations } from './integrations';
import { planPagerDutyPolicies } from './policies';
import { planPagerDutySchedules } from './schedules';
import { planPagerDutyUsers } from './users';

/**
 * The whole mapping of a PagerDuty account onto this service (docs/import-pagerduty.md), given what
 * already exists here. Pure: a dry run and a real import compute the same plan. `now` decides which
 * layers have ended.
 */
export function planPagerDutyImport(
  source: PagerDutySource,
  existing: ExistingRecords,
  now: Date,
): ImportPlan {
  const users = planPagerDutyUsers(source.users, source.deleted_user_ids, existing);
  const schedules = planPagerDutySchedules(
    source.schedules,
    source.overrides,
    users.directory,
    existing,
    now,
  );
  const policies = planPagerDutyPolicies(
    source.escalation_policies,
    {
      directory: users.directory,
      schedules: new Map(schedules.schedules.map((schedule) => [schedule.sourceId, schedule.name])),
    },
    existing,
  );
  const integrations = planPagerDutyIntegrations(source.services, source.integrations);
  const keyed = planKeyedIntegrations(integrations.candidates, existing);
  const created = new Set(keyed.keyedIntegrations.map((k) => k.sourceId));
  return {
    users: users.users,
    schedules: schedules.schedules,
    escalationPolicies: policies.escalationPolicies,
    keyedIntegrations: keyed.keyedIntegrations,
    conflicts: [...users.conflicts, ...schedules.conflicts, ...policies.conflicts, ...keyed.conflicts],
    warnings: [...users.warnings, ...schedules.warnings, ...policies.warnings],
    // An integration skipped as a conflict keeps its entry (where to point senders) but links to nothing.
    integrations: integrations.entries.map(({ keyedSourceId, ...entry }) =>
      keyedSourceId && created.has(keyedSourceId) ? { ...entry, keyedSourceId } : entry,
    ),
    summary: {
      users: { created: users.users.length, skipped: users.conflicts.length },
      schedules: { created: schedules.schedules.length, skipped: schedules.skipped },
      escalation_policies: {
        created: policies.escalationPolicies.length,
        skipped: policies.conflicts.length,
      },
      integrations: { created: keyed.keyedIntegrations.length, skipped: keyed.conflicts.length },
    },
  };
}
