import { describe, expect, it } from 'vitest';
import { delayMinutes, planOpsgenieEscalations, rulesToTiers } from './escalations';
import type { People } from './users';

const ann = { email: 'a@x.dev', name: 'Ann' };
const bob = { email: 'b@x.dev', name: 'Bob' };
const people: People = {
  byId: new Map([
    ['u1', ann],
    ['u2', bob],
  ]),
  byUsername: new Map(),
};
const context = {
  people,
  schedules: new Map([['s1', 'Primary']]),
  teams: new Map([
    [
      't1',
      {
        id: 't1',
        name: 'Ops',
        members: [
          { user: { id: 'u1' }, role: 'admin' },
          { user: { id: 'u2' }, role: 'user' },
        ],
      },
    ],
  ]),
};
type Rule = {
  at: number;
  recipient: Record<string, unknown> & { type: string };
  notifyType?: string;
  condition?: string;
  unit?: string;
};
const escalation = (rules: Rule[], repeat?: Record<string, unknown>) => ({
  id: 'e1',
  name: 'E',
  rules: rules.map(({ at, unit, ...rule }) => ({
    ...rule,
    delay: { timeAmount: at, timeUnit: unit ?? 'minutes' },
  })),
  repeat,
});
const user = (id: string) => ({ type: 'user', id });
const schedule = { type: 'schedule', id: 's1' };

describe('delays counted from the alert’s creation become per-tier waits', () => {
  it('rules at 0, 5 and 15 minutes: timeouts 5 and 10 minutes, then 5 minutes by default', () => {
    const { tiers } = rulesToTiers(
      escalation([
        { at: 0, recipient: user('u1') },
        { at: 5, recipient: schedule },
        { at: 15, recipient: user('u2') },
      ]),
      context,
    );
    expect(tiers.map((t) => [t.targetType, t.timeoutSeconds])).toEqual([
      ['users', 300],
      ['schedule', 600],
      ['users', 300],
    ]);
  });

  it('rules are taken in delay order, hours and days converted', () => {
    expect(delayMinutes({ delay: { timeAmount: 2, timeUnit: 'hours' }, recipient: user('u1') })).toBe(120);
    expect(delayMinutes({ delay: { timeAmount: 1, timeUnit: 'days' }, recipient: user('u1') })).toBe(1440);
    const { tiers } = rulesToTiers(
      escalation([
        { at: 1, unit: 'hours', recipient: user('u2') },
        { at: 0, recipient: user('u1') },
      ]),
      context,
    );
    expect(tiers.map((t) => [t.users[0]!.name, t.timeoutSeconds])).toEqual([
      ['Ann', 3600],
      ['Bob', 300],
    ]);
  });

  it('user rules due together are one tier; other rules due together are a minute apart, with a warning', () => {
    const { tiers, notes } = rulesToTiers(
      escalation([
        { at: 0, recipient: user('u1') },
        { at: 0, recipient: user('u2') },
        { at: 0, recipient: schedule },
      ]),
      context,
    );
    expect(tiers.map((t) => [t.users.map((u) => u.name), t.timeoutSeconds])).toEqual([
      [['Ann', 'Bob'], 60],
      [[], 300],
    ]);
    expect(notes).toEqual(['rule 3: due with the rule before it in Opsgenie; here paged 1 minute later']);
  });

  it('a wait over a week (delays in days, a long repeat waitInterval) is lowered to a week, with a warning', () => {
    const { tiers, notes } = rulesToTiers(
      escalation(
        [
          { at: 0, recipient: user('u1') },
          { at: 10, unit: 'days', recipient: user('u2') },
        ],
        { count: 1, waitInterval: 20_000 },
      ),
      context,
    );
    expect(tiers.map((t) => t.timeoutSeconds)).toEqual([604_800, 604_800]);
    expect(notes).toEqual([
      'tier 1 waits 14400 min until the next rule in Opsgenie; lowered to 10080 min (7 days), the longest a tier waits here',
      'tier 2 waits 20000 min before the repeat in Opsgenie; lowered to 10080 min (7 days), the longest a tier waits here',
    ]);
    // A week exactly is kept, without a warning.
    const week = rulesToTiers(
      escalation([{ at: 0, recipient: user('u1') }], { waitInterval: 10_080 }),
      context,
    );
    expect([week.tiers[0]!.timeoutSeconds, week.notes]).toEqual([604_800, []]);
  });

  it('a first rule after 0 minutes is paged at once here, with a warning', () => {
    const { notes } = rulesToTiers(escalation([{ at: 3, recipient: user('u1') }]), context);
    expect(notes).toEqual(['the first rule waits 3 min in Opsgenie; here tier 1 is paged at once']);
  });
});

describe('recipients and notifyType', () => {
  it('a deleted user stays a name without an account; an unimported schedule skips the rule', () => {
    const { tiers, notes } = rulesToTiers(
      escalation([
        { at: 0, recipient: { type: 'user', id: 'u9', username: 'gone@x.dev' } },
        { at: 5, recipient: { type: 'schedule', id: 's9', name: 'Elsewhere' } },
      ]),
      context,
    );
    expect(tiers).toEqual([
      {
        targetType: 'users',
        users: [{ email: null, name: 'gone@x.dev' }],
        schedule: null,
        timeoutSeconds: 300,
      },
    ]);
    expect(notes).toEqual([
      'rule 1: user gone@x.dev is not an imported user (deleted in Opsgenie, or skipped); kept as a name without an account',
      'rule 2: schedule Elsewhere was not imported; rule skipped',
    ]);
  });

  it('a team is approximated by its members (admins only for notifyType admins), with a warning', () => {
    const all = rulesToTiers(escalation([{ at: 0, recipient: { type: 'team', id: 't1' } }]), context);
    expect(all.tiers[0]!.users).toEqual([ann, bob]);
    expect(all.notes[0]).toBe(
      'rule 1: team Ops: Opsgenie notifies it through the team’s own escalation; here all its members at once (2)',
    );
    const admins = rulesToTiers(
      escalation([{ at: 0, recipient: { type: 'team', id: 't1' }, notifyType: 'admins' }]),
      context,
    );
    expect(admins.tiers[0]!.users).toEqual([ann]);
    const unknown = rulesToTiers(
      escalation([{ at: 0, recipient: { type: 'team', id: 't9', name: 'Gone' } }]),
      context,
    );
    expect(unknown.tiers).toEqual([]);
    expect(unknown.notes).toEqual(['rule 1: team Gone has no member to page; rule skipped']);
  });

  it('next, previous, all and random on a schedule page whoever is on call, with a warning; default none', () => {
    for (const notifyType of ['next', 'previous', 'all', 'random']) {
      const { tiers, notes } = rulesToTiers(
        escalation([{ at: 0, recipient: schedule, notifyType }]),
        context,
      );
      expect(tiers[0]!.schedule).toEqual({ sourceId: 's1', name: 'Primary' });
      expect(notes[0], notifyType).toContain(notifyType);
    }
    expect(
      rulesToTiers(escalation([{ at: 0, recipient: schedule, notifyType: 'default' }]), context).notes,
    ).toEqual([]);
  });

  it('if-not-closed is approximated: acknowledging stops the escalation here', () => {
    const { notes } = rulesToTiers(
      escalation([{ at: 0, recipient: user('u1'), condition: 'if-not-closed' }]),
      context,
    );
    expect(notes).toEqual(['rule 1: if-not-closed: here acknowledging stops the escalation']);
  });
});

describe('repeat', () => {
  it('count → repeat, waitInterval → the last tier’s timeout; over 10 lowered; closeAlertAfterAll warned', () => {
    const kept = rulesToTiers(
      escalation([{ at: 0, recipient: user('u1') }], { waitInterval: 20, count: 3 }),
      context,
    );
    expect(kept.repeat).toBe(3);
    expect(kept.tiers[0]!.timeoutSeconds).toBe(1200);
    const capped = rulesToTiers(
      escalation([{ at: 0, recipient: user('u1') }], { count: 25, closeAlertAfterAll: true }),
      context,
    );
    expect(capped.repeat).toBe(10);
    expect(capped.notes).toEqual([
      'repeat count 25 lowered to 10, the most a policy takes',
      'closeAlertAfterAll not imported: the incident stays open after the last repeat',
    ]);
    expect(rulesToTiers(escalation([{ at: 0, recipient: user('u1') }]), context).repeat).toBe(0);
  });
});

describe('policies', () => {
  it('name clashes are conflicts; the description names the owner team; no tier is a warning', () => {
    const plan = planOpsgenieEscalations(
      [
        { id: 'e1', name: 'Here', rules: [] },
        { id: 'e2', name: 'New', ownerTeam: { id: 't1', name: 'Ops' }, rules: [] },
        { id: 'e3', name: 'New', rules: [] },
      ],
      context,
      { policyNames: ['Here'] },
    );
    expect(plan.conflicts.map((c) => c.reason)).toEqual([
      'an escalation policy with this name already exists',
      'an earlier escalation in this import has the same name',
    ]);
    expect(plan.escalationPolicies).toEqual([
      {
        sourceId: 'e2',
        name: 'New',
        description: 'Imported from Opsgenie; team Ops',
        enabled: true,
        repeat: 0,
        tiers: [],
      },
    ]);
    expect(plan.warnings[0]!.message).toContain('pages nobody');
  });
});
