import { incidentStatuses } from '@firebreak/schema';
import { describe, expect, it } from 'vitest';
import { mttrSeconds, planStatusChange } from './incident-lifecycle';

describe('planStatusChange', () => {
  it('allows exactly triggered→acknowledged→resolved and triggered→resolved', () => {
    const moves = incidentStatuses.flatMap((from) =>
      incidentStatuses.map((to) => `${from}→${to}:${planStatusChange(from, to).kind}`),
    );
    expect(moves).toEqual([
      'triggered→triggered:none',
      'triggered→acknowledged:move',
      'triggered→resolved:move',
      'acknowledged→triggered:invalid',
      'acknowledged→acknowledged:none',
      'acknowledged→resolved:move',
      'resolved→triggered:invalid',
      'resolved→acknowledged:invalid',
      'resolved→resolved:none',
    ]);
  });
});

describe('mttrSeconds', () => {
  it('is resolved_at minus created_at in whole seconds, rounded down', () => {
    const created = new Date('2026-11-21T10:00:00.000Z');
    expect(mttrSeconds(created, new Date('2026-11-21T10:42:17.999Z'))).toBe(2537);
    expect(mttrSeconds(created, created)).toBe(0);
    expect(mttrSeconds(created, new Date('2026-11-21T09:59:59.000Z'))).toBe(0);
  });
});
