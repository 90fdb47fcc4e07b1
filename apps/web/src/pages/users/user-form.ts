import type { Role, User } from '@firebreak/schema';

/**
 * The user editor's fields and the change they send: only what was changed, so saving a form left as
 * it was asks nothing of the API, and an admin editing the chat id does not re-send a role someone else
 * just changed. An empty chat id removes it.
 */
export interface UserForm {
  name: string;
  role: Role;
  slackUserId: string;
  teamsUserId: string;
  active: boolean;
  shiftNotices: boolean;
}

export type UserChange = Partial<
  Pick<User, 'name' | 'role' | 'slack_user_id' | 'teams_user_id' | 'active' | 'shift_notices'>
>;

const TEAMS_ID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/;

export function formOfUser(user: User): UserForm {
  return {
    name: user.name,
    role: user.role,
    slackUserId: user.slack_user_id ?? '',
    teamsUserId: user.teams_user_id ?? '',
    active: user.active,
    shiftNotices: user.shift_notices,
  };
}

export function userChangeOf(user: User, form: UserForm): { change: UserChange } | { error: string } {
  const change: UserChange = {};
  const name = form.name.trim();
  if (!name) return { error: 'Give the user a name.' };
  if (name !== user.name) change.name = name;
  if (form.role !== user.role) change.role = form.role;
  const chatId = form.slackUserId.trim() || null;
  if (chatId !== null && !/^[UW][A-Z0-9]{2,}$/.test(chatId)) {
    return { error: 'The chat user id looks like U024BE7LH: a U or W, then capitals and digits.' };
  }
  if (chatId !== user.slack_user_id) change.slack_user_id = chatId;
  const teamsId = form.teamsUserId.trim().toLowerCase() || null;
  if (teamsId !== null && !TEAMS_ID.test(teamsId)) {
    return { error: 'The Teams user id is the person’s Microsoft Entra object id, a GUID.' };
  }
  if (teamsId !== user.teams_user_id) change.teams_user_id = teamsId;
  if (form.active !== user.active) change.active = form.active;
  if (form.shiftNotices !== user.shift_notices) change.shift_notices = form.shiftNotices;
  return { change };
}
