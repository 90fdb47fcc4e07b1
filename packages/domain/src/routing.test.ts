import { describe, expect, it } from 'vitest';
import {
  byEvaluationOrder,
  criteriaMatch,
  firstMatchingRule,
  groupKey,
  incidentSeverityFor,
} from './routing';

const integrationId = '0b5c8a4e-8f51-4d5e-9a39-2f3c1e6d7a10';
const alert = {
  source: 'metrics-alertmanager',
  integration_id: integrationId as string | null,
  labels: { team: 'db', env: 'prod' },
  severity: 'critical' as const,
};

describe('criteriaMatch', () => {
  it('matches everything with empty criteria', () => {
    expect(criteriaMatch({}, alert)).toBe(true);
    expect(criteriaMatch({}, { source: null, integration_id: null, labels: {}, severity: 'info' })).toBe(
      true,
    );
  });

  it('matches by source, one or several', () => {
    expect(criteriaMatch({ source: 'metrics-alertmanager' }, alert)).toBe(true);
    expect(criteriaMatch({ source: ['cloud-monitor', 'metrics-alertmanager'] }, alert)).toBe(true);
    expect(criteriaMatch({ source: 'cloud-monitor' }, alert)).toBe(false);
    expect(criteriaMatch({ source: 'x' }, { ...alert, source: null })).toBe(false);
  });

  it('matches labels exactly, "*" meaning present', () => {
    expect(criteriaMatch({ labels: { team: 'db' } }, alert)).toBe(true);
    expect(criteriaMatch({ labels: { team: 'web' } }, alert)).toBe(false);
    expect(criteriaMatch({ labels: { env: '*' } }, alert)).toBe(true);
    expect(criteriaMatch({ labels: { region: '*' } }, alert)).toBe(false);
  });

  it('needs every given criterion', () => {
    expect(criteriaMatch({ labels: { team: 'db' }, severity: ['critical'] }, alert)).toBe(true);
    expect(criteriaMatch({ labels: { team: 'db' }, severity: ['warning', 'info'] }, alert)).toBe(false);
    expect(criteriaMatch({ source: 'metrics-alertmanager', labels: { team: 'web' } }, alert)).toBe(false);
  });

  it('matches the integration an alert came through, never a fixed path’s alert', () => {
    expect(criteriaMatch({ integration_id: integrationId }, alert)).toBe(true);
    expect(criteriaMatch({ integration_id: [crypto.randomUUID(), integrationId] }, alert)).toBe(true);
    expect(criteriaMatch({ integration_id: crypto.randomUUID() }, alert)).toBe(false);
    expect(criteriaMatch({ integration_id: integrationId }, { ...alert, integration_id: null })).toBe(false);
  });
});

describe('firstMatchingRule', () => {
  it('takes the first match in evaluation order (priority, then age)', () => {
    const old = new Date('2026-01-01T00:00:00Z');
    const young = new Date('2026-06-01T00:00:00Z');
    const rules = [
      {
        name: 'catch-all',
        priority: 1000,
        created_at: old,
        match_criteria: {},
        actions: { create_incident: true },
      },
      {
        name: 'db young',
        priority: 10,
        created_at: young,
        match_criteria: { labels: { team: 'db' } },
        actions: {},
      },
      {
        name: 'db old',
        priority: 10,
        created_at: old,
        match_criteria: { labels: { team: 'db' } },
        actions: {},
      },
      { name: 'web', priority: 1, created_at: old, match_criteria: { labels: { team: 'web' } }, actions: {} },
    ].sort(byEvaluationOrder);
    expect(firstMatchingRule(rules, alert)?.name).toBe('db old');
    expect(firstMatchingRule(rules, { ...alert, labels: {} })?.name).toBe('catch-all');
    expect(firstMatchingRule([], alert)).toBeUndefined();
  });
});

describe('incidentSeverityFor', () => {
  it('maps alert severities and honours the rule override', () => {
    expect(incidentSeverityFor('critical')).toBe('critical');
    expect(incidentSeverityFor('warning')).toBe('high');
    expect(incidentSeverityFor('info')).toBe('low');
    expect(incidentSeverityFor('info', 'medium')).toBe('medium');
  });
});

describe('groupKey', () => {
  it('depends on the grouped labels only, in order, with missing distinct from empty', () => {
    expect(groupKey(['team'], { team: 'db', pod: 'a' })).toBe(groupKey(['team'], { team: 'db', pod: 'b' }));
    expect(groupKey(['team'], { team: 'db' })).not.toBe(groupKey(['team'], { team: 'web' }));
    expect(groupKey(['team'], {})).not.toBe(groupKey(['team'], { team: '' }));
    expect(groupKey(['a', 'b'], { a: '1', b: '2' })).not.toBe(groupKey(['b', 'a'], { a: '1', b: '2' }));
  });
});
