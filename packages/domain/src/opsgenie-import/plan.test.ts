// The whole mapping on the fixture account (packages/testing/fixtures/opsgenie), without I/O beyond reading
// the files.
import { readFileSync } from 'node:fs';
import { resolve } from 'node:path';
import {
  OpsgenieEscalationItem,
  OpsgenieIntegrationItem,
  OpsgenieScheduleItem,
  type OpsgenieSource,
  OpsgenieTeamItem,
  OpsgenieUserItem,
} from '@firebreak/schema';
import { describe, expect, it } from 'vitest';
import { planOpsgenieImport } from './plan';

// Read by path: the domain package depends on no I/O kit, not even the testing one.
const fixtures = resolve(import.meta.dirname, '../../../testing/fixtures/opsgenie');
const read = (name: string) => JSON.parse(readFileSync(resolve(fixtures, `${name}.json`), 'utf8'));
const source: OpsgenieSource = {
  users: read('users').map((u: unknown) => OpsgenieUserItem.parse(u)),
  teams: read('teams').map((t: unknown) => OpsgenieTeamItem.parse(t)),
  schedules: read('schedules').map((s: unknown) => OpsgenieScheduleItem.parse(s)),
  overrides: read('overrides'),
  escalations: read('escalations').map((e: unknown) => OpsgenieEscalationItem.parse(e)),
  integrations: read('integrations').map((i: unknown) => OpsgenieIntegrationItem.parse(i)),
};
// What preexisting.json says exists here before the import.
const existing = {
  users: [{ email: 'dana@northwind.dev', name: 'Dana', slack_user_id: null }],
  scheduleNames: ['Existing Schedule'],
  policyNames: ['Existing Policy'],
  integrationKeys: ['3f8a2c10-7d4b-4e61-9a35-legacy000003'],
};
const now = new Date('2026-06-01T00:00:00Z');

describe('the fixture account', () => {
  it('counts what is created and skipped, integrations included', () => {
    expect(planOpsgenieImport(source, existing, now).summary).toEqual({
      users: { created: 5, skipped: 1 },
      schedules: { created: 2, skipped: 1 },
      escalation_policies: { created: 2, skipped: 1 },
      integrations: { created: 2, skipped: 1 },
    });
  });

  it('a key taken here is a conflict, not a second integration', () => {
    const plan = planOpsgenieImport(source, existing, now);
    expect(plan.keyedIntegrations.map((k) => [k.name, k.type])).toEqual([
      ['Checkout API', 'opsgenie'],
      ['Alertmanager', 'opsgenie'],
    ]);
    expect(plan.conflicts.filter((c) => c.kind === 'integration')).toEqual([
      { kind: 'integration', name: 'Legacy API', reason: 'an integration with this key already exists' },
    ]);
  });

  it('everything present already: nothing planned, all conflicts', () => {
    const first = planOpsgenieImport(source, existing, now);
    const again = planOpsgenieImport(
      source,
      {
        users: [
          ...existing.users,
          ...first.users.map((u) => ({ email: u.email, name: u.name, slack_user_id: null })),
        ],
        scheduleNames: [...existing.scheduleNames, ...first.schedules.map((s) => s.name)],
        policyNames: [...existing.policyNames, ...first.escalationPolicies.map((p) => p.name)],
        integrationKeys: [...existing.integrationKeys, ...first.keyedIntegrations.map((k) => k.key)],
      },
      now,
    );
    expect([again.users, again.schedules, again.escalationPolicies, again.keyedIntegrations]).toEqual([
      [],
      [],
      [],
      [],
    ]);
    expect(again.conflicts).toHaveLength(6 + 3 + 3 + 3);
  });
});
