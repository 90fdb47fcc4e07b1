import { describe, expect, it } from 'vitest';
import { incidentGroupKey, senderGroupKey } from './sender-groups';
import { decideStorm, moreSevere, type OpenStorm, type StormCheck, stormTitle } from './storms';

const at = new Date('2026-05-04T10:00:00Z');
const minutesBefore = (minutes: number) => new Date(at.getTime() - minutes * 60_000);
const storm = (overrides: Partial<OpenStorm> = {}): OpenStorm => ({
  id: 'storm',
  status: 'triggered',
  severity: 'high',
  title: stormTitle(3),
  resolvedAt: null,
  lastAbsorbedAt: minutesBefore(1),
  absorbedAlerts: 3,
  ...overrides,
});
const check = (overrides: Partial<StormCheck> = {}): StormCheck => ({
  enabled: true,
  thresholdIncidents: 10,
  windowMinutes: 5,
  calmMinutes: 10,
  scope: 'none',
  recentIncidents: 0,
  storm: null,
  ...overrides,
});

describe('storm decisions', () => {
  it('opens normally up to the threshold, and starts a storm past it', () => {
    expect(decideStorm(check({ recentIncidents: 9 }), at)).toEqual({ kind: 'open', calm: null });
    expect(decideStorm(check({ recentIncidents: 10 }), at)).toEqual({ kind: 'start', calm: null });
  });

  it('absorbs while the storm lasts, whatever the count', () => {
    const raging = storm();
    expect(decideStorm(check({ storm: raging }), at)).toEqual({ kind: 'absorb', storm: raging });
  });

  it('ends a storm quiet for the calm time, at the moment it calmed', () => {
    const quiet = storm({ lastAbsorbedAt: minutesBefore(12) });
    expect(decideStorm(check({ storm: quiet }), at)).toEqual({
      kind: 'open',
      calm: { storm: quiet, calmedAt: minutesBefore(2), reason: 'quiet' },
    });
    expect(decideStorm(check({ storm: quiet, recentIncidents: 10 }), at).kind).toBe('start');
  });

  it('ends a storm whose incident was resolved, at the resolution', () => {
    const resolved = storm({ status: 'resolved', resolvedAt: minutesBefore(1) });
    expect(decideStorm(check({ storm: resolved }), at)).toEqual({
      kind: 'open',
      calm: { storm: resolved, calmedAt: minutesBefore(1), reason: 'resolved' },
    });
  });

  it('does nothing when storm mode is off', () => {
    expect(decideStorm(check({ enabled: false, recentIncidents: 50 }), at)).toEqual({
      kind: 'open',
      calm: null,
    });
  });

  it('titles and severities', () => {
    expect(stormTitle(1)).toBe('Alert storm: 1 alert');
    expect(stormTitle(7)).toBe('Alert storm: 7 alerts');
    expect(moreSevere('high', 'critical')).toBe('critical');
    expect(moreSevere('high', 'low')).toBe('high');
  });
});

describe('sender groups', () => {
  const annotations = { group_key: '{}/{team="db"}:{alertname="PostgresReplicaLag"}' };
  const labels = { zone: 'a' };

  const integration = 'alertmanager';

  it('stores a bounded key for any groupKey, and none without one', () => {
    expect(senderGroupKey(integration, annotations)).toMatch(/^sender:[0-9a-f]{64}$/);
    expect(senderGroupKey(integration, { group_key: 'x'.repeat(100_000) })).toHaveLength(71);
    expect(senderGroupKey(integration, {})).toBeNull();
    expect(senderGroupKey(integration, { group_key: '' })).toBeNull();
    expect(senderGroupKey(integration, { group_key: 42 })).toBeNull();
  });

  it('keeps the same groupKey of two integrations apart', () => {
    const a = senderGroupKey('6f1c0c9e-0000-4000-8000-00000000000a', annotations);
    const b = senderGroupKey('6f1c0c9e-0000-4000-8000-00000000000b', annotations);
    expect(a).not.toBe(b);
    expect(senderGroupKey('6f1c0c9e-0000-4000-8000-00000000000a', annotations)).toBe(a);
    // The pair is hashed, not its concatenation.
    expect(senderGroupKey('ab', { group_key: 'c' })).not.toBe(senderGroupKey('a', { group_key: 'bc' }));
  });

  it('lets a rule’s group_by win, and split_sender_groups turn sender groups off', () => {
    const alert = { integration, labels, annotations };
    expect(incidentGroupKey({ group_by: ['zone'] }, alert)).toBe('["a"]');
    expect(incidentGroupKey({ group_by: ['zone'] }, { ...alert, integration: 'other' })).toBe('["a"]');
    expect(incidentGroupKey({ split_sender_groups: true }, alert)).toBeNull();
    expect(incidentGroupKey({}, alert)).toBe(senderGroupKey(integration, annotations));
  });
});
