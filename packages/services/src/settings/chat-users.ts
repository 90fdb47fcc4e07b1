import { type Queryable, settingKeys, settings } from '@firebreak/db';
import type { Role } from '@firebreak/schema';

/** The roles a chat user created on first use may get; never admin (docs/integrations/slack.md#users). */
export type ChatUserDefaultRole = Extract<Role, 'viewer' | 'member'>;

/**
 * Member by default: the chat is where responders act, and a new chat user is only created from a
 * profile whose e-mail the chat workspace vouches for and no Firebreak user has yet. Workspaces with
 * guests or other people who must not change incidents set `viewer` (docs/integrations/slack.md#users).
 */
export const DEFAULT_CHAT_USER_ROLE: ChatUserDefaultRole = 'member';

export interface ChatUserSettings {
  /** The role of chat users created on first use. */
  defaultRole: ChatUserDefaultRole;
  /** Chat users Firebreak cannot match to a user may still act, under their chat name (off by default). */
  allowUnmatched: boolean;
}

/** Read when a chat command needs them: rare enough (a new or unmatched chat user) not to cache. */
export async function readChatUserSettings(sql: Queryable): Promise<ChatUserSettings> {
  const values = await settings.listSettings(sql);
  return chatUserSettingsIn(values);
}

export function chatUserSettingsIn(values: Map<string, unknown>): ChatUserSettings {
  const role = values.get(settingKeys.chatUserDefaultRole);
  return {
    defaultRole: role === 'viewer' || role === 'member' ? role : DEFAULT_CHAT_USER_ROLE,
    allowUnmatched: values.get(settingKeys.chatAllowUnmatchedUsers) === true,
  };
}
