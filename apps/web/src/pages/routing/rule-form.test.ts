import type { RoutingRule } from '@firebreak/schema';
import { describe, expect, it } from 'vitest';
import {
  describeActions,
  describeMatch,
  emptyRuleForm,
  formOfRule,
  parseLabels,
  ruleInputOf,
} from './rule-form';

const rule: RoutingRule = {
  id: '00000000-0000-4000-8000-000000000001',
  name: 'Storage pages',
  priority: 10,
  enabled: true,
  match_criteria: {
    source: ['metrics-alertmanager', 'cloud-monitor'],
    severity: ['critical'],
    labels: { team: 'storage', host: '*' },
  },
  actions: { create_incident: true, severity: 'high', group_by: ['host'], group_window_seconds: 600 },
  created_at: '2026-11-21T10:00:00.000Z',
};

describe('routing rule editor fields', () => {
  it('round-trips a rule through the form unchanged', () => {
    const { id, created_at, ...input } = rule;
    expect(ruleInputOf(formOfRule(rule))).toEqual(input);
  });

  it('reads a label line without "=" as "present"', () => {
    expect(parseLabels('team = storage\n\nhost\n')).toEqual({ team: 'storage', host: '*' });
  });

  it('round-trips split_sender_groups, and drops it when the rule suppresses', () => {
    const split: RoutingRule = { ...rule, actions: { create_incident: true, split_sender_groups: true } };
    expect(formOfRule(split).splitSenderGroups).toBe(true);
    expect(ruleInputOf(formOfRule(split)).actions).toEqual({
      create_incident: true,
      split_sender_groups: true,
    });
    expect(describeActions(split)).toBe('open incident, one per alert (sender groups split)');
    expect(ruleInputOf({ ...formOfRule(split), mode: 'suppress' }).actions).toEqual({ suppress: true });
  });

  it('drops grouping and severity when the rule suppresses', () => {
    const form = { ...formOfRule(rule), mode: 'suppress' as const };
    expect(ruleInputOf(form).actions).toEqual({ suppress: true });
  });

  it('sends an empty match for a rule with no criteria, which matches every alert', () => {
    const input = ruleInputOf({ ...emptyRuleForm(5), name: ' Catch-all ' });
    expect(input).toEqual({
      name: 'Catch-all',
      priority: 5,
      enabled: true,
      match_criteria: {},
      actions: { create_incident: true },
    });
    expect(describeMatch(input)).toBe('every alert');
  });

  it('describes criteria as the operator wrote them', () => {
    expect(describeMatch(rule)).toBe(
      'source metrics-alertmanager or cloud-monitor, severity critical, team=storage, has host',
    );
  });
});
