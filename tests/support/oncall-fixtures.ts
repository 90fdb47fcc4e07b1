// The Grafana OnCall fixtures (packages/testing/fixtures/oncall): the state to hold before an import
// (`preexisting.json`), and the comparison of an answer with `expected.json`, read the way the
// fixtures' README says a test compares each part.
import { readFileSync } from 'node:fs';
import { resolve } from 'node:path';
import { escalationPolicies, type Queryable, schedules, users } from '@firebreak/db';
import type { OnCallImportResult } from '@firebreak/schema';
import { oncallFixturesDir } from '@firebreak/testing';
import { expect } from 'vitest';

export const repoRoot = resolve(import.meta.dirname, '../..');
export { oncallFixturesDir };

// biome-ignore lint/suspicious/noExplicitAny: expected.json is read structurally by the assertions.
export const expected: any = JSON.parse(readFileSync(resolve(oncallFixturesDir, 'expected.json'), 'utf8'));

export interface Preexisting {
  user_emails: string[];
  schedule_names: string[];
  policy_names: string[];
}

export const PREEXISTING_USER_NAME = 'Dana K. (already here)';

/** Creates what `preexisting.json` says must exist before the import; answers the users' ids. */
export async function loadPreexisting(sql: Queryable): Promise<string[]> {
  const state: Preexisting = JSON.parse(readFileSync(resolve(oncallFixturesDir, 'preexisting.json'), 'utf8'));
  const at = new Date();
  const ids: string[] = [];
  for (const email of state.user_emails) {
    ids.push((await users.insertUser(sql, { email, name: PREEXISTING_USER_NAME, role: 'member' })).id);
  }
  for (const name of state.schedule_names) await schedules.insertSchedule(sql, { name, timezone: 'UTC', at });
  for (const name of state.policy_names) {
    await escalationPolicies.insertPolicy(sql, { name, description: '', enabled: true, repeat: 0, at });
  }
  return ids;
}

type Answer = Pick<OnCallImportResult, 'users' | 'schedules' | 'escalation_policies'>;
type Layer = OnCallImportResult['schedules'][number]['layers'][number];
type Tier = {
  target_type: string;
  user_names: string[];
  schedule_id: string | null;
  schedule_name?: string | null;
  timeout_seconds: number;
};
/** The name of the schedule a tier pages: its id resolved, or (a dry run has no ids) the name it gives. */
export type ScheduleNameOf = (tier: Tier) => string | null | undefined;

export const userFields = (user: Answer['users'][number]) => ({
  email: user.email,
  name: user.name,
  role: user.role,
  slack_user_id: user.slack_user_id,
  auth_source: user.auth_source,
  active: user.active,
});

export const scheduleFields = (schedule: { name: string; timezone: string; layers: Layer[] }) => ({
  name: schedule.name,
  timezone: schedule.timezone,
  layers: [...schedule.layers]
    .sort((a, b) => a.order_index - b.order_index)
    .map((layer) => ({
      name: layer.name,
      order_index: layer.order_index,
      // Compared as instants: `…09:00:00.000Z` equals `…09:00:00Z`.
      rotation_start: new Date(layer.rotation_start).getTime(),
      shift_duration_seconds: layer.shift_duration_seconds,
      rotation_type: layer.rotation_type,
      participants: layer.participants.map((p) => p.name),
    })),
});

/** A tier's schedule is compared by the name of the schedule it pages. */
export const policyFields = (
  policy: { name: string; description: string; enabled: boolean; tiers: Tier[] },
  scheduleNameOf: ScheduleNameOf,
) => ({
  name: policy.name,
  description: policy.description,
  enabled: policy.enabled,
  tiers: policy.tiers.map((tier) =>
    tier.target_type === 'schedule'
      ? {
          target_type: 'schedule',
          schedule_name: scheduleNameOf(tier),
          timeout_seconds: tier.timeout_seconds,
        }
      : { target_type: 'users', user_names: tier.user_names, timeout_seconds: tier.timeout_seconds },
  ),
});

export const expectedSchedules = () =>
  expected.schedules.map((s: { layers: Array<{ rotation_start: string }> }) => ({
    ...s,
    layers: s.layers.map((l) => ({ ...l, rotation_start: new Date(l.rotation_start).getTime() })),
  }));

/** Every part of expected.json, field by field. */
export function expectMatchesExpected(answer: OnCallImportResult, scheduleNameOf: ScheduleNameOf) {
  expect(answer.users.map(userFields)).toEqual(expected.users);
  expect(answer.schedules.map(scheduleFields)).toEqual(expectedSchedules());
  const policies = answer.escalation_policies.map((p) => policyFields(p, scheduleNameOf));
  expect(policies.map(({ description, ...rest }) => rest)).toEqual(
    expected.escalation_policies.map(({ description, ...rest }: { description: string }) => rest),
  );
  for (const policy of policies) expect(policy.description).toContain('Grafana OnCall');
  expectConflicts(answer, expected.conflicts);
  expectWarnings(answer, expected.warnings_min);
  expect(answer.integrations).toEqual(expected.integrations);
  expect(answer.summary).toEqual(expected.summary);
}

/** Exactly these conflicts, matched on kind and name (for users also e-mail or login). */
export function expectConflicts(
  answer: OnCallImportResult,
  wanted: Array<{ kind: string; name: string; email?: string; username?: string }>,
) {
  expect(answer.conflicts).toHaveLength(wanted.length);
  for (const entry of wanted) {
    const names = [entry.name, entry.email, entry.username].filter(Boolean);
    expect(
      answer.conflicts.some((c) => c.kind === entry.kind && names.includes(c.name)),
      JSON.stringify(entry),
    ).toBe(true);
  }
}

/** The strict reading: each expected entry pairs with a different warning. */
export function expectWarnings(
  answer: OnCallImportResult,
  wanted: Array<{ kind: string; name: string; subject: string | null }>,
) {
  const unused = [...answer.warnings];
  for (const entry of wanted) {
    const mentions = (w: { name: string; message: string }, text: string) =>
      w.name.includes(text) || w.message.includes(text);
    let index = unused.findIndex(
      (w) =>
        w.kind === entry.kind && mentions(w, entry.name) && (!entry.subject || mentions(w, entry.subject)),
    );
    if (index < 0 && entry.subject) index = unused.findIndex((w) => mentions(w, entry.subject!));
    expect(index, `no warning for ${JSON.stringify(entry)}`).toBeGreaterThanOrEqual(0);
    unused.splice(index, 1);
  }
}
