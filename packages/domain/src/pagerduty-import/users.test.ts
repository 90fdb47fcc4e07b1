import { describe, expect, it } from 'vitest';
import { mapPagerDutyRole, planPagerDutyUsers, resolveUser } from './users';

const nothing = { users: [] };

describe('PagerDuty roles', () => {
  it.each([
    ['owner', 'admin'],
    ['admin', 'admin'],
    ['user', 'member'],
    ['limited_user', 'member'],
    ['observer', 'viewer'],
    ['read_only_user', 'viewer'],
    ['read_only_limited_user', 'viewer'],
    ['restricted_access', 'viewer'],
    ['something_new', 'viewer'],
    [null, 'viewer'],
  ])('%s → %s', (role, expected) => {
    expect(mapPagerDutyRole(role)).toBe(expected);
  });
});

describe('PagerDuty users', () => {
  it('imports e-mail (lowercased), name and role; no chat id', () => {
    const plan = planPagerDutyUsers(
      [{ id: 'P1', name: 'Finn Wu', email: 'Finn.Wu@X.dev', role: 'admin' }],
      [],
      nothing,
    );
    expect(plan.users).toEqual([
      { sourceId: 'P1', email: 'finn.wu@x.dev', name: 'Finn Wu', role: 'admin', slackUserId: null },
    ]);
    expect(plan.directory.people.get('P1')).toEqual({ email: 'finn.wu@x.dev', name: 'Finn Wu' });
  });

  it('skips an existing e-mail as a conflict but links references to that user', () => {
    const plan = planPagerDutyUsers([{ id: 'P1', name: 'Gita', email: 'gita@x.dev', role: 'user' }], [], {
      users: [{ email: 'gita@x.dev', name: 'Gita (ours)', slack_user_id: null }],
    });
    expect(plan.users).toEqual([]);
    expect(plan.conflicts).toEqual([
      { kind: 'user', name: 'Gita', email: 'gita@x.dev', reason: 'a user with this e-mail already exists' },
    ]);
    expect(plan.directory.people.get('P1')).toEqual({ email: 'gita@x.dev', name: 'Gita (ours)' });
  });

  it('skips users without an e-mail, and users PagerDuty marks deleted', () => {
    const plan = planPagerDutyUsers(
      [
        { id: 'P1', name: 'No Mail', email: null },
        { id: 'P2', name: 'Gone', email: 'gone@x.dev', deleted_at: '2025-01-01T00:00:00Z' },
      ],
      [],
      nothing,
    );
    expect(plan.users).toEqual([]);
    expect(plan.conflicts.map((c) => c.reason)).toEqual([
      'no e-mail address',
      'deleted in PagerDuty on 2025-01-01T00:00:00Z',
    ]);
  });

  it('keeps a reference to a deleted user as its name, saying why', () => {
    const { directory } = planPagerDutyUsers([], ['PGONE'], nothing);
    expect(resolveUser({ id: 'PGONE', type: 'user_reference', summary: 'Old Timer' }, directory)).toEqual({
      person: { email: null, name: 'Old Timer' },
      note: 'Old Timer (PGONE) was deleted in PagerDuty; kept as a name without an account',
    });
    expect(resolveUser({ id: 'PX', type: 'user_reference' }, directory).note).toBe(
      'PX (PX) is not an imported user; kept as a name without an account',
    );
  });
});
