import { users } from '@firebreak/db';
import {
  type Actor,
  type ChatPlatformName,
  SLACK_USER_ID_PATTERN,
  TEAMS_USER_ID_PATTERN,
} from '@firebreak/schema';
import { recordAudit } from '../audit';
import { presentUser } from '../auth/present';
import type { ServiceContext } from '../context';
import { readChatUserSettings } from '../settings/chat-users';

/** Who the chat service says sent a command or clicked a button. */
export interface ChatUserRef {
  id: string;
  name: string;
}

/** The part of a chat profile (`users.info`) that matching needs. */
export interface ChatProfile {
  name: string;
  /** Null when the profile has none or the bot lacks `users:read.email`. */
  email: string | null;
}

/**
 * Looks a chat user up in the chat service. Resolves null when the service does not know the user;
 * rejects when it cannot be asked (unreachable, token revoked, too slow).
 */
export type ChatProfileLookup = (chatUserId: string) => Promise<ChatProfile | null>;

/** Why a chat user matches no Firebreak user. */
export type UnmatchedReason = 'lookup_failed' | 'no_email' | 'invalid_id';

export interface ChatIdentity {
  /** What the timeline records: `{type: 'chat', id: <user id>, name}`, or without id when unmatched. */
  actor: Actor;
  /** The Firebreak user, or null when the chat service could not tell us who this is. */
  user: users.UserRow | null;
  /** Set when `user` is null: why, and whether `chat_allow_unmatched_users` lets them act anyway. */
  unmatched?: { reason: UnmatchedReason; allowed: boolean };
}

/**
 * A chat user (docs/integrations/slack.md#users) is the user with their chat id; else the user with their profile's
 * e-mail (which then gets the chat id); else a new user with `auth_source` chat, no password and the
 * role of the `chat_user_default_role` setting. When none of that works (the chat service cannot be
 * asked, the profile has no e-mail) the identity is unmatched: the caller refuses to act on it unless
 * `chat_allow_unmatched_users` is on, since a chat name alone proves nothing about the Firebreak role.
 */
export async function identifyChatUser(
  ctx: ServiceContext,
  who: ChatUserRef,
  lookup: ChatProfileLookup,
  platform: ChatPlatformName = 'slack',
): Promise<ChatIdentity> {
  // The id goes into mentions (`<@id>`) and onto the user row: only a well-formed one is taken.
  if (!CHAT_USER_ID_PATTERNS[platform].test(who.id)) return unmatched(ctx, who, 'invalid_id');
  const known = await users.findUserByChatId(ctx.sql, platform, who.id);
  if (known) return identityOf(known);

  let profile: ChatProfile | null;
  try {
    profile = await lookup(who.id);
  } catch (error) {
    ctx.logger.warn({ chat_user_id: who.id, err: error }, 'chat user lookup failed');
    return unmatched(ctx, who, 'lookup_failed');
  }
  // Without an e-mail we cannot tell a newcomer from an existing user; creating one would bind the
  // chat id to a stranger for good, so this person stays unmatched.
  if (!profile?.email) {
    ctx.logger.warn({ chat_user_id: who.id, found: profile !== null }, 'chat user has no e-mail');
    return unmatched(ctx, who, 'no_email');
  }

  const email = profile.email.toLowerCase();
  const existing = await users.findUserByEmail(ctx.sql, email);
  if (existing) {
    if (await users.linkChatUser(ctx.sql, platform, existing.id, who.id)) {
      ctx.logger.info({ user_id: existing.id, chat_user_id: who.id, platform }, 'chat user linked');
    }
    return identityOf(existing);
  }

  const { defaultRole } = await readChatUserSettings(ctx.sql);
  const created = await ctx.sql.begin(async (tx) => {
    const row = await users.insertChatUser(tx, {
      email,
      name: profile.name || who.name,
      platform,
      chatUserId: who.id,
      role: defaultRole,
    });
    // Nobody created this user through the API; the audit log names chat as the actor.
    if (row) {
      await recordAudit(tx, ctx, {
        origin: { actor: { type: 'system', name: 'chat' }, requestId: null },
        entity: 'user',
        entityId: row.id,
        action: 'create',
        before: null,
        after: presentUser(row),
      });
    }
    return row;
  });
  if (created) {
    ctx.logger.info({ user_id: created.id, role: created.role, auth_source: 'chat' }, 'user created');
    return identityOf(created);
  }
  // A concurrent command by the same person created (or linked) them first.
  const winner =
    (await users.findUserByChatId(ctx.sql, platform, who.id)) ??
    (await users.findUserByEmail(ctx.sql, email));
  return winner ? identityOf(winner) : unmatched(ctx, who, 'lookup_failed');
}

/** What a platform's user ids look like: Slack's member ids, Teams users' Entra object ids. */
const CHAT_USER_ID_PATTERNS: Record<ChatPlatformName, RegExp> = {
  slack: SLACK_USER_ID_PATTERN,
  teams: TEAMS_USER_ID_PATTERN,
};

function identityOf(user: users.UserRow): ChatIdentity {
  return { actor: { type: 'chat', id: user.id, name: user.name }, user };
}

async function unmatched(
  ctx: ServiceContext,
  who: ChatUserRef,
  reason: UnmatchedReason,
): Promise<ChatIdentity> {
  const { allowUnmatched } = await readChatUserSettings(ctx.sql);
  return {
    actor: { type: 'chat', name: who.name },
    user: null,
    unmatched: { reason, allowed: allowUnmatched },
  };
}
