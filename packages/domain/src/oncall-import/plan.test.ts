// The whole mapping on the fixture organisation (packages/testing/fixtures/oncall), without I/O beyond
// reading the files: the plan must already hold what expected.json says the import answers.
import { readFileSync } from 'node:fs';
import { resolve } from 'node:path';
import { type OnCallSource, onCallSourceItems } from '@firebreak/schema';
import { describe, expect, it } from 'vitest';
import { planOnCallImport } from './plan';

// Read by path: the domain package depends on no I/O kit, not even the testing one.
const fixtures = resolve(import.meta.dirname, '../../../testing/fixtures/oncall');
const read = (name: string) => JSON.parse(readFileSync(resolve(fixtures, `${name}.json`), 'utf8'));
const source = Object.fromEntries(
  Object.entries(onCallSourceItems).map(([resource, schema]) => [
    resource,
    (read(resource) as unknown[]).map((item) => schema.parse(item)),
  ]),
) as OnCallSource;
const expected = read('expected');
const preexisting = read('preexisting');
const existing = {
  users: (preexisting.user_emails as string[]).map((email) => ({
    email,
    name: 'Dana (ours)',
    slack_user_id: null,
  })),
  scheduleNames: preexisting.schedule_names as string[],
  policyNames: preexisting.policy_names as string[],
  integrationKeys: [],
};
const plan = planOnCallImport(source, existing, new Date('2026-06-01T00:00:00Z'));

describe('the fixture organisation', () => {
  it('plans the expected users, in API order', () => {
    expect(
      plan.users.map((u) => ({
        email: u.email,
        name: u.name,
        role: u.role,
        slack_user_id: u.slackUserId,
        auth_source: 'local',
        active: true,
      })),
    ).toEqual(expected.users);
  });

  it('plans the expected schedules and layers, times as instants', () => {
    expect(
      plan.schedules.map((s) => ({
        name: s.name,
        timezone: s.timezone,
        layers: s.layers.map((l) => ({
          name: l.name,
          order_index: l.orderIndex,
          rotation_start: l.rotationStart.toISOString(),
          shift_duration_seconds: l.shiftDurationSeconds,
          rotation_type: l.rotationType,
          participants: l.participants.map((p) => p.name),
        })),
      })),
    ).toEqual(
      expected.schedules.map((s: { layers: Array<{ rotation_start: string }> }) => ({
        ...s,
        layers: s.layers.map((l) => ({ ...l, rotation_start: new Date(l.rotation_start).toISOString() })),
      })),
    );
  });

  it('plans the expected escalation policies and tiers', () => {
    expect(
      plan.escalationPolicies.map((p) => ({
        name: p.name,
        description: p.description,
        enabled: p.enabled,
        tiers: p.tiers.map((t) =>
          t.targetType === 'schedule'
            ? { target_type: 'schedule', schedule_name: t.schedule!.name, timeout_seconds: t.timeoutSeconds }
            : {
                target_type: 'users',
                user_names: t.users.map((u) => u.name),
                timeout_seconds: t.timeoutSeconds,
              },
        ),
      })),
    ).toEqual(expected.escalation_policies);
  });

  it('has exactly the expected conflicts, integrations and summary', () => {
    expect(plan.conflicts).toHaveLength(expected.conflicts.length);
    for (const conflict of expected.conflicts) {
      expect(plan.conflicts).toContainEqual(
        expect.objectContaining({ kind: conflict.kind, name: conflict.name }),
      );
    }
    // The fixture is the answer's shape; the plan knows no ids yet (OnCall's import creates none).
    expect(plan.integrations.map((entry) => ({ ...entry, integration_id: null }))).toEqual(
      expected.integrations,
    );
    expect(plan.summary).toEqual(expected.summary);
  });

  it('gives every expected warning, each matched by a different one', () => {
    const unused = [...plan.warnings];
    for (const entry of expected.warnings_min) {
      const index = unused.findIndex(
        (w) =>
          w.kind === entry.kind &&
          (w.name.includes(entry.name) || w.message.includes(entry.name)) &&
          (entry.subject === null || w.message.includes(entry.subject)),
      );
      expect(index, JSON.stringify(entry)).toBeGreaterThanOrEqual(0);
      unused.splice(index, 1);
    }
  });
});
