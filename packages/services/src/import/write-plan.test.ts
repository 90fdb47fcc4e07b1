import type { ImportPlan } from '@firebreak/domain';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { finalOnCallPerson } from '../oncall/final-shifts';
import { createTestContext, type TestContext } from '../testing/context';
import { writePlan } from './write-plan';

let t: TestContext;
beforeAll(async () => {
  t = await createTestContext();
});
afterAll(() => t.cleanup());

const people = ['ann', 'bo', 'cy', 'di', 'ed', 'flo'];
const person = (name: string) => ({ email: `${name}@example.test`, name });

describe('writing an import plan', () => {
  it('creates overlapping overrides in the source’s order, so the last of them decides as in the source', async () => {
    const at = (hour: number) => new Date(Date.UTC(2026, 0, 5, hour));
    const plan = {
      users: people.map((name) => ({ sourceId: name, ...person(name), role: 'member', slackUserId: null })),
      schedules: [
        {
          sourceId: 'S1',
          name: 'Imported',
          timezone: 'UTC',
          layers: [],
          // All cover 13:00; the source lists Flo's last.
          overrides: people.map((name, index) => ({
            sourceId: `O${index}`,
            person: person(name),
            startsAt: at(10 + (index % 3)),
            endsAt: at(14 + index),
          })),
        },
      ],
      escalationPolicies: [],
      keyedIntegrations: [],
      conflicts: [],
      warnings: [],
      integrations: [],
    } as unknown as ImportPlan;
    const now = new Date('2026-01-01T00:00:00Z');
    const ids = await t.ctx.sql.begin((tx) => writePlan(tx, plan, new Map(), now));
    const scheduleId = ids.scheduleIds.get('S1')!;
    const rows = await t.ctx.sql<{ external_id: string; created_at: Date }[]>`
      select external_id, created_at from schedule_overrides where schedule_id = ${scheduleId}
      order by created_at, id`;
    expect(rows.map((r) => r.external_id)).toEqual(people.map((_, index) => `oncall:O${index}`));
    expect(new Set(rows.map((r) => r.created_at.getTime())).size).toBe(people.length);
    const onCall = await finalOnCallPerson(t.ctx.sql, scheduleId, at(13));
    expect(onCall?.person?.name).toBe('flo');
  });
});
