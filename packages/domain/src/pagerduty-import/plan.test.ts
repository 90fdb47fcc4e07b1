import { readFileSync } from 'node:fs';
import type { PagerDutySource } from '@firebreak/schema';
import { describe, expect, it } from 'vitest';
import { planPagerDutyImport } from './plan';

// The fixture account the fake PagerDuty API serves (packages/testing/fixtures/pagerduty/README.md).
const dir = new URL('../../../testing/fixtures/pagerduty/', import.meta.url);
const load = (name: string) => JSON.parse(readFileSync(new URL(`${name}.json`, dir), 'utf8'));
const integrations: PagerDutySource['integrations'] = {};
for (const item of load('integrations')) {
  integrations[item.service.id] = [...(integrations[item.service.id] ?? []), item];
}
const source: PagerDutySource = {
  users: load('users'),
  schedules: load('schedules'),
  overrides: load('overrides'),
  escalation_policies: load('escalation_policies'),
  services: load('services'),
  integrations,
  deleted_user_ids: ['PGONE99'],
};
const preexisting = load('preexisting');
const existing = {
  users: (preexisting.user_emails as string[]).map((email) => ({
    email,
    name: 'Gita (ours)',
    slack_user_id: null,
  })),
  scheduleNames: preexisting.schedule_names as string[],
  policyNames: preexisting.policy_names as string[],
  integrationKeys: preexisting.integration_keys as string[],
};
const plan = planPagerDutyImport(source, existing, new Date('2026-06-01T00:00:00Z'));

describe('the Northwind fixture account, planned', () => {
  it('counts what it creates and skips', () => {
    expect(plan.summary).toEqual({
      users: { created: 6, skipped: 1 },
      schedules: { created: 2, skipped: 1 },
      escalation_policies: { created: 2, skipped: 1 },
      integrations: { created: 3, skipped: 1 },
    });
    expect(plan.conflicts.map((c) => [c.kind, c.name])).toEqual([
      ['user', 'Gita Rao'],
      ['schedule', 'Database Oncall'],
      ['escalation_policy', 'Legacy Escalation'],
      ['integration', 'Data Warehouse / Airflow'],
    ]);
  });

  it('maps roles, layers in precedence order and policies with their loops', () => {
    expect(plan.users.map((u) => [u.email, u.role])).toEqual([
      ['ada@northwind.dev', 'admin'],
      ['ben@northwind.dev', 'admin'],
      ['chloe@northwind.dev', 'member'],
      ['dev@northwind.dev', 'member'],
      ['emma@northwind.dev', 'viewer'],
      ['finn.wu@northwind.dev', 'viewer'],
    ]);
    const platform = plan.schedules.find((s) => s.name === 'Platform Primary')!;
    expect(platform.layers.map((l) => [l.orderIndex, l.name])).toEqual([
      [0, 'Primary weekly'],
      [1, 'Weekend cover'],
    ]);
    expect(platform.layers[0]!.participants.map((p) => p.name)).toEqual([
      'Ada Lovelace',
      'Ben Okafor',
      'Old Timer',
    ]);
    const payments = plan.escalationPolicies.find((p) => p.name === 'Payments Critical')!;
    // Gita already exists here: the tier names her, by e-mail, not a copy.
    expect(payments.tiers[0]!.users).toEqual([
      { email: 'dev@northwind.dev', name: 'Dev Patel' },
      { email: 'gita@northwind.dev', name: 'Gita (ours)' },
    ]);
    expect(plan.escalationPolicies.map((p) => [p.name, p.repeat, p.tiers.length])).toEqual([
      ['Platform Default', 2, 3],
      ['Payments Critical', 0, 2],
    ]);
  });

  it('creates Events API integrations with their keys, linked to the entries of the answer', () => {
    expect(plan.keyedIntegrations.map((k) => [k.name, k.key, k.escalationPolicySourceId])).toEqual([
      ['Checkout API / Prometheus', 'a1b2c3d4e5f60718293a4b5c6d7e8f90', 'PEPLAT1'],
      ['Checkout API / Legacy Nagios', '0f1e2d3c4b5a69788796a5b4c3d2e1f0', 'PEPLAT1'],
      ['Payments / Alertmanager', '9a8b7c6d5e4f30211203f4e5d6c7b8a9', 'PEPAY02'],
    ]);
    expect(plan.integrations.map((i) => [i.name, i.webhook_path, i.keyedSourceId ?? null])).toEqual([
      ['Checkout API / Prometheus', '/v2/enqueue', 'PSVCHK1/PI2PROM'],
      ['Checkout API / Support inbox', null, null],
      ['Checkout API / Legacy Nagios', '/generic/2010-04-15/create_event.json', 'PSVCHK1/PI1NAGI'],
      ['Payments / Alertmanager', '/v2/enqueue', 'PSVPAY2/PI2ALRT'],
      ['Payments / CloudWatch', null, null],
      // Its key exists here already: listed, not created again.
      ['Data Warehouse / Airflow', '/v2/enqueue', null],
    ]);
  });

  it('warns about every approximation', () => {
    const messages = plan.warnings.map((w) => `${w.kind} ${w.name}: ${w.message}`);
    for (const expected of [
      /schedule Platform Primary: layer 'Old nights': ended/,
      /schedule Platform Primary: layer 'Weekend cover': restrictions \(weekly from Saturday/,
      /schedule Platform Primary: layer 'Primary weekly': Old Timer \(PGONE99\) was deleted/,
      /schedule Platform Primary: override Ben Okafor from 2026-12-24/,
      /schedule Payments Business Hours: layer 'Daytime': restrictions \(daily 09:00 for 9h\)/,
      /escalation_policy Platform Default: rule 2: Old Timer \(PGONE99\) was deleted/,
      /escalation_policy Platform Default: rule 3: pages whoever is on call in Payments Business Hours only; Chloé Martin dropped/,
      /escalation_policy Payments Critical: rule 2: .*schedule Database Oncall \(not imported\) dropped/,
    ]) {
      expect(messages).toContainEqual(expect.stringMatching(expected));
    }
    expect(messages).toHaveLength(8);
  });
});
