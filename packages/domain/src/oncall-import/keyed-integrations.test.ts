import { describe, expect, it } from 'vitest';
import { planKeyedIntegrations } from './keyed-integrations';

const candidate = (sourceId: string, key: string) => ({
  sourceId,
  name: `n-${sourceId}`,
  type: 'pagerduty' as const,
  key,
  enabled: true,
});

describe('integrations that keep the source’s key', () => {
  it('creates each key once; a key that exists here, or repeats, is a conflict', () => {
    const plan = planKeyedIntegrations(
      [candidate('a', 'K1'), candidate('b', 'TAKEN'), candidate('c', 'K1')],
      {
        integrationKeys: ['TAKEN'],
      },
    );
    expect(plan.keyedIntegrations.map((k) => k.sourceId)).toEqual(['a']);
    expect(plan.conflicts).toEqual([
      { kind: 'integration', name: 'n-b', reason: 'an integration with this key already exists' },
      { kind: 'integration', name: 'n-c', reason: 'an earlier integration in this import has the same key' },
    ]);
  });
});
