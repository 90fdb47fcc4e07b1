import type { User } from '@firebreak/schema';
import { describe, expect, it } from 'vitest';
import { formOfUser, userChangeOf } from './user-form';

const bea: User = {
  id: '00000000-0000-4000-8000-0000000000b1',
  email: 'bea@example.test',
  name: 'Bea Backup',
  role: 'member',
  slack_user_id: null,
  teams_user_id: null,
  auth_source: 'local',
  active: true,
  shift_notices: true,
  created_at: '2026-01-01T00:00:00Z',
};

describe('the user editor', () => {
  it('sends only what changed, and nothing for an unchanged form', () => {
    expect(userChangeOf(bea, formOfUser(bea))).toEqual({ change: {} });
    const form = { ...formOfUser(bea), role: 'admin' as const, slackUserId: ' U024BE7LH ', active: false };
    expect(userChangeOf(bea, form)).toEqual({
      change: { role: 'admin', slack_user_id: 'U024BE7LH', active: false },
    });
  });

  it('removes a chat id left empty, and refuses one chat would not know', () => {
    const linked = { ...bea, slack_user_id: 'U024BE7LH' };
    expect(userChangeOf(linked, { ...formOfUser(linked), slackUserId: '' })).toEqual({
      change: { slack_user_id: null },
    });
    expect(userChangeOf(bea, { ...formOfUser(bea), slackUserId: '<!channel>' })).toMatchObject({
      error: expect.stringContaining('U024BE7LH'),
    });
  });

  it('takes a Teams user id as an Entra object id, lowercased, and refuses anything else', () => {
    const id = '6B1F3E2A-0C4D-4E5F-8A9B-1C2D3E4F5A6B';
    expect(userChangeOf(bea, { ...formOfUser(bea), teamsUserId: ` ${id} ` })).toEqual({
      change: { teams_user_id: id.toLowerCase() },
    });
    expect(userChangeOf(bea, { ...formOfUser(bea), teamsUserId: 'alice@contoso.com' })).toMatchObject({
      error: expect.stringContaining('Entra object id'),
    });
  });

  it('turns shift notices off for someone', () => {
    expect(userChangeOf(bea, { ...formOfUser(bea), shiftNotices: false })).toEqual({
      change: { shift_notices: false },
    });
  });
});
