import type { OnCallEscalationStepItem } from '@firebreak/schema';
import { describe, expect, it } from 'vitest';
import { orderSteps, type StepContext, stepsToTiers, timeoutOf } from './tiers';

const context: StepContext = {
  people: new Map([
    ['UA', { email: 'a@x.dev', name: 'Alice' }],
    ['UB', { email: 'b@x.dev', name: 'Bruno' }],
    // A second OnCall account of Alice's (same e-mail): the same person.
    ['UA2', { email: 'a@x.dev', name: 'Alice' }],
  ]),
  schedules: new Map([['S1', 'Primary']]),
};
let position = 0;
const step = (
  type: string | null,
  fields: Partial<OnCallEscalationStepItem> = {},
): OnCallEscalationStepItem => ({
  id: `E${position}`,
  escalation_chain_id: 'F1',
  position: position++,
  type,
  ...fields,
});
const persons = (ids: string[]) => step('notify_persons', { persons_to_notify: ids });
const onCall = (id: string | null) =>
  step('notify_on_call_from_schedule', { notify_on_call_from_schedule: id });
const wait = (duration: number | null) => step('wait', { duration });

describe('notify_persons and notify_person_next_each_time', () => {
  it('become a users tier with the resolved names', () => {
    const { tiers, notes } = stepsToTiers(
      [
        persons(['UA', 'UB']),
        step('notify_person_next_each_time', { persons_to_notify_next_each_time: ['UB'] }),
      ],
      context,
    );
    expect(tiers).toEqual([
      {
        targetType: 'users',
        users: [
          { email: 'a@x.dev', name: 'Alice' },
          { email: 'b@x.dev', name: 'Bruno' },
        ],
        schedule: null,
        timeoutSeconds: 300,
      },
      {
        targetType: 'users',
        users: [{ email: 'b@x.dev', name: 'Bruno' }],
        schedule: null,
        timeoutSeconds: 300,
      },
    ]);
    expect(notes).toEqual([]);
  });

  it('keep the users that resolve, each once, and warn about each one dropped', () => {
    const { tiers, notes } = stepsToTiers([persons(['UA', 'UGONE', 'UA2', 'UA'])], context);
    expect(tiers[0]!.users).toEqual([{ email: 'a@x.dev', name: 'Alice' }]);
    expect(notes).toEqual([
      expect.stringMatching(/notify_persons: user UGONE is not an imported user; dropped/),
    ]);
  });

  it('are skipped, with a warning, only when no user resolves', () => {
    const { tiers, notes } = stepsToTiers([persons(['UGONE'])], context);
    expect(tiers).toEqual([]);
    expect(notes).toEqual([
      expect.stringContaining('UGONE'),
      expect.stringContaining('no user could be resolved; step skipped'),
    ]);
  });
});

describe('notify_on_call_from_schedule', () => {
  it('targets the schedule created from that OnCall schedule', () => {
    const { tiers } = stepsToTiers([onCall('S1')], context);
    expect(tiers).toEqual([
      {
        targetType: 'schedule',
        users: [],
        schedule: { sourceId: 'S1', name: 'Primary' },
        timeoutSeconds: 300,
      },
    ]);
  });

  it('is skipped with a warning when that schedule was not created, or was deleted (null)', () => {
    const { tiers, notes } = stepsToTiers([onCall('SICAL'), onCall(null)], context);
    expect(tiers).toEqual([]);
    expect(notes).toEqual([
      expect.stringContaining('schedule SICAL was not imported; step skipped'),
      expect.stringContaining('schedule (deleted) was not imported; step skipped'),
    ]);
  });
});

describe('timeout_seconds', () => {
  it('is the sum of the waits after the step, before the next tier; skipped steps do not interrupt it', () => {
    const { tiers } = stepsToTiers(
      [onCall('S1'), wait(600), step('notify_whole_channel'), wait(120), persons(['UA']), wait(60)],
      context,
    );
    expect(tiers.map((t) => t.timeoutSeconds)).toEqual([720, 60]);
  });

  it("is the step's own duration when no wait follows, else 300", () => {
    expect(timeoutOf({ waited: 0, ownDuration: 45 })).toBe(45);
    expect(timeoutOf({ waited: 0, ownDuration: 0 })).toBe(300);
    expect(timeoutOf({ waited: 90, ownDuration: 45 })).toBe(90);
    const { tiers } = stepsToTiers(
      [persons(['UA']), step('notify_persons', { persons_to_notify: ['UB'], duration: 90 })],
      context,
    );
    expect(tiers.map((t) => t.timeoutSeconds)).toEqual([300, 90]);
  });

  it('ignores, with a warning, a wait before the first tier or without a duration', () => {
    const { tiers, notes } = stepsToTiers([wait(300), persons(['UA']), wait(null)], context);
    expect(tiers.map((t) => t.timeoutSeconds)).toEqual([300]);
    expect(notes).toEqual([
      expect.stringContaining('wait before the first notification ignored'),
      expect.stringContaining('wait without a duration ignored'),
    ]);
  });
});

describe('other steps', () => {
  it.each([
    'resolve',
    'notify_whole_channel',
    'notify_if_time_from_to',
    'trigger_webhook',
    'notify_team_members',
    'notify_user_group',
    'declare_incident',
  ])('%s is skipped with a warning', (type) => {
    const { tiers, notes } = stepsToTiers([step(type)], context);
    expect(tiers).toEqual([]);
    expect(notes).toEqual([
      expect.stringMatching(new RegExp(`^position \\d+: ${type}: step type not imported$`)),
    ]);
  });

  it('repeat_escalation and empty steps are skipped with a warning too', () => {
    const { notes } = stepsToTiers([step('repeat_escalation'), step(null)], context);
    expect(notes).toEqual([
      expect.stringMatching(/repeat_escalation: step type not imported; set the policy's repeat/),
      expect.stringMatching(/empty step: step type not imported/),
    ]);
  });
});

describe('step order', () => {
  it('is by position, which may have gaps, whatever the order served', () => {
    const a = { ...persons(['UA']), position: 7 };
    const b = { ...persons(['UB']), position: 2 };
    expect(orderSteps([a, b])).toEqual([b, a]);
    expect(stepsToTiers([a, b], context).tiers.map((t) => t.users[0]!.name)).toEqual(['Bruno', 'Alice']);
  });
});
