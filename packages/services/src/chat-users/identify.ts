import { users } from '@firebreak/db';
import type { Actor } from '@firebreak/schema';
import type { ServiceContext } from '../context';

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

export interface ChatIdentity {
  /** What the timeline records: `{type: 'chat', id: <user id>, name}`, or without id when unmatched. */
  actor: Actor;
  /** The Firebreak user, or null when the chat service could not tell us who this is. */
  user: users.UserRow | null;
}

/**
 * A chat user (docs/integrations/slack.md#users) is the user with their chat id; else the user with their
 * profile's e-mail (which then gets the chat id); else a new `member` with `auth_source` chat and no
 * password. When the chat service cannot be asked, the command still runs under the chat name alone: an
 * outage of the chat API must not stop someone from acknowledging an incident.
 */
export async function identifyChatUser(
  ctx: ServiceContext,
  who: ChatUserRef,
  lookup: ChatProfileLookup,
): Promise<ChatIdentity> {
  const known = await users.findUserBySlackId(ctx.sql, who.id);
  if (known) return identityOf(known);

  let profile: ChatProfile | null;
  try {
    profile = await lookup(who.id);
  } catch (error) {
    ctx.logger.warn({ chat_user_id: who.id, err: error }, 'chat user lookup failed');
    return unmatched(who);
  }
  // Without an e-mail we cannot tell a newcomer from an existing user; creating one would bind the
  // chat id to a stranger for good, so this command runs under the chat name only.
  if (!profile?.email) {
    ctx.logger.warn({ chat_user_id: who.id, found: profile !== null }, 'chat user has no e-mail');
    return unmatched(who);
  }

  const email = profile.email.toLowerCase();
  const existing = await users.findUserByEmail(ctx.sql, email);
  if (existing) {
    if (await users.linkSlackUser(ctx.sql, existing.id, who.id)) {
      ctx.logger.info({ user_id: existing.id, chat_user_id: who.id }, 'chat user linked');
    }
    return identityOf(existing);
  }

  const created = await users.insertChatUser(ctx.sql, {
    email,
    name: profile.name || who.name,
    slackUserId: who.id,
  });
  if (created) {
    ctx.logger.info({ user_id: created.id, role: created.role, auth_source: 'chat' }, 'user created');
    return identityOf(created);
  }
  // A concurrent command by the same person created (or linked) them first.
  const winner =
    (await users.findUserBySlackId(ctx.sql, who.id)) ?? (await users.findUserByEmail(ctx.sql, email));
  return winner ? identityOf(winner) : unmatched(who);
}

function identityOf(user: users.UserRow): ChatIdentity {
  return { actor: { type: 'chat', id: user.id, name: user.name }, user };
}

function unmatched(who: ChatUserRef): ChatIdentity {
  return { actor: { type: 'chat', name: who.name }, user: null };
}
