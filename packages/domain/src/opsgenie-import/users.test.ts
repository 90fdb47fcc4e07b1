import { describe, expect, it } from 'vitest';
import { mapOpsgenieRole, planOpsgenieUsers, resolveUser } from './users';

const user = (id: string, username: string | null, role = 'User', fullName: string | null = null) => ({
  id,
  username,
  fullName,
  role: { id: role, name: role },
});

describe('roles', () => {
  it('Owner and Admin → admin, User → member, Observer and Stakeholder → viewer, whatever the case', () => {
    expect(['Owner', 'admin', 'User', 'observer', 'Stakeholder'].map(mapOpsgenieRole)).toEqual([
      'admin',
      'admin',
      'member',
      'viewer',
      'viewer',
    ]);
  });

  it('a custom role is imported as viewer, with a warning', () => {
    const plan = planOpsgenieUsers([user('1', 'a@x.dev', 'Responder', 'Ann')], { users: [] });
    expect(plan.users[0]!.role).toBe('viewer');
    expect(plan.warnings).toEqual([
      { kind: 'user', name: 'Ann', message: expect.stringContaining('custom role "Responder"') },
    ]);
  });
});

describe('users', () => {
  it('e-mail is the lowercased username, the name fullName else the username', () => {
    const plan = planOpsgenieUsers([user('1', 'Ann.B@X.dev', 'Admin', 'Ann B'), user('2', 'c@x.dev')], {
      users: [],
    });
    expect(plan.users.map((u) => [u.email, u.name, u.role])).toEqual([
      ['ann.b@x.dev', 'Ann B', 'admin'],
      ['c@x.dev', 'c@x.dev', 'member'],
    ]);
  });

  it('an existing e-mail, a repeated one, none, or not an e-mail: conflicts; references link to the holder', () => {
    const plan = planOpsgenieUsers(
      [
        user('1', 'here@x.dev'),
        user('2', 'a@x.dev'),
        user('3', 'A@x.dev'),
        user('4', null),
        user('5', 'bob'),
      ],
      { users: [{ email: 'here@x.dev', name: 'Here', slack_user_id: null }] },
    );
    expect(plan.users.map((u) => u.sourceId)).toEqual(['2']);
    expect(plan.conflicts.map((c) => c.reason)).toEqual([
      'a user with this e-mail already exists',
      'same e-mail as "a@x.dev", imported earlier in this run',
      'no username (e-mail address)',
      '"bob" is not an e-mail address',
    ]);
    expect(plan.people.byId.get('1')).toEqual({ email: 'here@x.dev', name: 'Here' });
    expect(plan.people.byId.get('3')).toEqual({ email: 'a@x.dev', name: 'a@x.dev' });
    expect(plan.people.byId.has('4')).toBe(false);
  });

  it('recipients resolve by id, else by username; a deleted user stays a name without an account', () => {
    const { people } = planOpsgenieUsers([user('1', 'a@x.dev', 'User', 'Ann')], { users: [] });
    expect(resolveUser({ type: 'user', id: '1' }, people)).toEqual({
      person: { email: 'a@x.dev', name: 'Ann' },
      unresolved: false,
    });
    expect(resolveUser({ type: 'user', username: 'A@x.dev' }, people).unresolved).toBe(false);
    expect(resolveUser({ type: 'user', id: '9', username: 'gone@x.dev' }, people)).toEqual({
      person: { email: null, name: 'gone@x.dev' },
      unresolved: true,
    });
  });

  it('a user blocked in Opsgenie is imported with a warning', () => {
    const plan = planOpsgenieUsers([{ ...user('1', 'a@x.dev', 'User', 'Ann'), blocked: true }], {
      users: [],
    });
    expect(plan.users).toHaveLength(1);
    expect(plan.warnings[0]!.message).toContain('blocked in Opsgenie');
  });
});
