import type { OnCallUserItem } from '@firebreak/schema';
import { describe, expect, it } from 'vitest';
import type { ExistingRecords } from './types';
import { mapRole, planUsers, userName } from './users';

const nothing: ExistingRecords = { users: [], scheduleNames: [], policyNames: [], integrationKeys: [] };
const user = (id: string, fields: Partial<OnCallUserItem> = {}): OnCallUserItem => ({
  id,
  email: `${id.toLowerCase()}@example.dev`,
  username: id.toLowerCase(),
  role: 'editor',
  slack: null,
  ...fields,
});

describe('users: e-mail', () => {
  it('is lowercased and trimmed', () => {
    const plan = planUsers([user('U1', { email: ' Chen.Wei@Harborview.DEV ' })], nothing);
    expect(plan.users[0]!.email).toBe('chen.wei@harborview.dev');
  });

  it('is required: a user with an empty or null e-mail is skipped as a conflict', () => {
    const plan = planUsers(
      [user('U1', { email: '', name: 'No Mail' }), user('U2', { email: null })],
      nothing,
    );
    expect(plan.users).toEqual([]);
    expect(plan.conflicts).toEqual([
      { kind: 'user', name: 'No Mail', reason: 'no e-mail address', email: null, username: 'u1' },
      { kind: 'user', name: 'u2', reason: 'no e-mail address', email: null, username: 'u2' },
    ]);
    expect(plan.people.has('U1')).toBe(false);
  });

  it('must look like an address', () => {
    const plan = planUsers([user('U1', { email: 'not an address' })], nothing);
    expect(plan.users).toEqual([]);
    expect(plan.conflicts[0]!.reason).toContain('is not an e-mail address');
  });

  it('already present (whatever its case): skipped, never overwritten, and references mean that user', () => {
    const existing = {
      ...nothing,
      users: [{ email: 'Dana.K@example.dev', name: 'Dana (ours)', slack_user_id: null }],
    };
    const plan = planUsers([user('U1', { email: 'dana.k@EXAMPLE.dev', name: 'Dana Kovacs' })], existing);
    expect(plan.users).toEqual([]);
    expect(plan.conflicts).toEqual([
      {
        kind: 'user',
        name: 'Dana Kovacs',
        reason: 'a user with this e-mail already exists',
        email: 'dana.k@example.dev',
        username: 'u1',
      },
    ]);
    expect(plan.people.get('U1')).toEqual({ email: 'dana.k@example.dev', name: 'Dana (ours)' });
  });

  it('equal to an earlier user of the same run after lowercasing: skipped, resolving to the earlier one', () => {
    const plan = planUsers(
      [
        user('U1', { email: 'Sam@x.dev', name: 'Sam One' }),
        user('U2', { email: 'sam@X.dev', name: 'Sam Two' }),
      ],
      nothing,
    );
    expect(plan.users.map((u) => u.name)).toEqual(['Sam One']);
    expect(plan.conflicts).toMatchObject([{ kind: 'user', name: 'Sam Two', email: 'sam@x.dev' }]);
    expect(plan.conflicts[0]!.reason).toContain('earlier in this run');
    expect(plan.people.get('U2')).toEqual({ email: 'sam@x.dev', name: 'Sam One' });
  });
});

describe('users: name', () => {
  it('falls back to username when name is missing or blank', () => {
    expect(userName(user('U1', { name: 'Alice Moreau' }))).toBe('Alice Moreau');
    expect(userName(user('U1', { username: 'farah' }))).toBe('farah');
    expect(userName(user('U1', { name: '  ', username: 'farah' }))).toBe('farah');
  });

  it('falls back to the e-mail local part when there is no username either', () => {
    expect(userName(user('U1', { username: null, email: 'x.y@z.dev' }))).toBe('x.y');
  });
});

describe('users: role', () => {
  it.each([
    ['admin', 'admin'],
    ['user', 'member'],
    ['editor', 'member'],
    ['viewer', 'viewer'],
    ['none', 'viewer'],
    ['observer', 'viewer'],
    [null, 'viewer'],
    ['ADMIN', 'admin'],
  ] as const)('%s → %s', (source, role) => {
    expect(mapRole(source)).toBe(role);
  });
});

describe('users: slack_user_id and fixed fields', () => {
  it('is set from slack.user_id when present, null otherwise', () => {
    const plan = planUsers(
      [user('U1', { slack: { user_id: 'U05A', team_id: 'T1' } }), user('U2', { slack: null })],
      nothing,
    );
    expect(plan.users.map((u) => u.slackUserId)).toEqual(['U05A', null]);
  });

  it('one another user already has is left out, with a warning, rather than failing the import', () => {
    const existing = { ...nothing, users: [{ email: 'other@x.dev', name: 'Other', slack_user_id: 'U05A' }] };
    const plan = planUsers([user('U1', { name: 'Ann', slack: { user_id: 'U05A' } })], existing);
    expect(plan.users[0]!.slackUserId).toBeNull();
    expect(plan.warnings).toEqual([{ kind: 'user', name: 'Ann', message: expect.stringContaining('U05A') }]);
  });

  it('one that is not a chat user id (it would go into mentions verbatim) is left out, with a warning', () => {
    const plan = planUsers([user('U1', { name: 'Eve', slack: { user_id: 'U1>|<!channel' } })], nothing);
    expect(plan.users[0]!.slackUserId).toBeNull();
    expect(plan.warnings).toEqual([
      { kind: 'user', name: 'Eve', message: expect.stringContaining('is not a chat user id') },
    ]);
  });

  it('maps users in API order, and every created user resolves to itself', () => {
    const plan = planUsers([user('U2', { name: 'B' }), user('U1', { name: 'A' })], nothing);
    expect(plan.users.map((u) => u.sourceId)).toEqual(['U2', 'U1']);
    expect(plan.people.get('U1')).toEqual({ email: 'u1@example.dev', name: 'A' });
  });
});
