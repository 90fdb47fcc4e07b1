import type { OpsgenieSource } from '@firebreak/schema';
import { planKeyedIntegrations } from '../oncall-import/keyed-integrations';
import type { ExistingRecords, ImportPlan } from '../oncall-import/types';
import { planOpsgenieEscalations } from './escalations';
import { planOpsgenieIntegrations } from './integrations';
import { planOpsgenieSchedules } from './schedules';
import { planOpsgenieUsers } from './users';

/**
 * The whole mapping of an Opsgenie account onto this service (docs/import-opsgenie.md), given what
 * already exists here. Pure: a dry run and a real import compute the same plan, and only the real one
 * writes it. `now` decides which rotations have already ended.
 *
 * Teams are not records here: a team's name goes into the description of the policies it owns, its
 * members stand in for it where a rule pages it, and its integrations escalate with its policy.
 */
export function planOpsgenieImport(source: OpsgenieSource, existing: ExistingRecords, now: Date): ImportPlan {
  const users = planOpsgenieUsers(source.users, existing);
  const teams = new Map(source.teams.map((team) => [team.id, team]));
  const schedules = planOpsgenieSchedules(
    source.schedules,
    source.overrides,
    { people: users.people, teamNames: new Map(source.teams.map((t) => [t.id, t.name])), now },
    existing,
  );
  const policies = planOpsgenieEscalations(
    source.escalations,
    {
      people: users.people,
      schedules: new Map(schedules.schedules.map((schedule) => [schedule.sourceId, schedule.name])),
      teams,
    },
    existing,
  );
  const integrations = planOpsgenieIntegrations(
    source.integrations,
    source.escalations,
    new Set(policies.escalationPolicies.map((policy) => policy.sourceId)),
  );
  const keyed = planKeyedIntegrations(integrations.candidates, existing);
  return {
    users: users.users,
    schedules: schedules.schedules,
    escalationPolicies: policies.escalationPolicies,
    keyedIntegrations: keyed.keyedIntegrations,
    conflicts: [...users.conflicts, ...schedules.conflicts, ...policies.conflicts, ...keyed.conflicts],
    warnings: [...users.warnings, ...schedules.warnings, ...policies.warnings],
    integrations: integrations.entries,
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
