import { chatErrorCode } from '@firebreak/chat-client';
import type { ChatIdentity, ChatProfileLookup } from '@firebreak/services';
import type { WebClient } from '@slack/web-api';

/**
 * How long a command waits for `users.info` before going on without it. Slack gives us 3 seconds in
 * all; the database work after the lookup needs the rest.
 */
export const PROFILE_LOOKUP_BUDGET_MS = 1500;

/** `users.info` as the matching service wants it (services never see the chat SDK). */
export function createProfileLookup(
  client: WebClient | undefined,
  budgetMs: number = PROFILE_LOOKUP_BUDGET_MS,
): ChatProfileLookup {
  return async (chatUserId) => {
    if (!client) throw new Error('CHAT_BOT_TOKEN is not set');
    let timer: NodeJS.Timeout | undefined;
    const timeout = new Promise<never>((_, reject) => {
      timer = setTimeout(() => reject(new Error(`users.info took over ${budgetMs} ms`)), budgetMs);
    });
    try {
      const res = await Promise.race([client.users.info({ user: chatUserId }), timeout]);
      const user = res.user;
      if (!user) return null;
      const name = user.profile?.real_name || user.real_name || user.profile?.display_name || user.name || '';
      return { name, email: user.profile?.email ?? null };
    } catch (error) {
      const code = chatErrorCode(error);
      if (code === 'user_not_found') return null;
      // Only the chat service's code or our own timeout: SDK errors can carry whole responses.
      throw new Error(
        code ? `users.info: ${code}` : error instanceof Error ? error.message : 'users.info failed',
      );
    } finally {
      clearTimeout(timer);
    }
  };
}

export type Permission = { ok: true } | { ok: false; reason: string };

/**
 * Chat users act with their Firebreak role (docs/api.md#roles): viewers read, deactivated users do
 * nothing. A chat user Firebreak could not match to a user is refused: the chat name alone says nothing
 * about their role, so acting on it would let anyone in the workspace change incidents whenever the
 * lookup fails. An admin may allow it (`chat_allow_unmatched_users`, docs/integrations/slack.md#users).
 */
export function mayChangeIncidents(identity: ChatIdentity): Permission {
  const { user } = identity;
  if (!user) {
    if (identity.unmatched?.allowed) return { ok: true };
    return { ok: false, reason: unmatchedReason(identity) };
  }
  if (!user.active) return { ok: false, reason: 'Your Firebreak account is deactivated.' };
  if (user.role === 'viewer') {
    return {
      ok: false,
      reason: 'Your Firebreak role is viewer: you can read incidents but not change them.',
    };
  }
  return { ok: true };
}

/**
 * Reading an incident from chat beyond what its channel shows (`/incident status`, a question for the
 * bot): any active Firebreak user, viewers included. An unmatched chat user is refused like for the
 * other commands (unless `chat_allow_unmatched_users`): being in the workspace is not being a user.
 */
export function mayReadIncidents(identity: ChatIdentity): Permission {
  const { user } = identity;
  if (!user) {
    if (identity.unmatched?.allowed) return { ok: true };
    return { ok: false, reason: unmatchedReason(identity) };
  }
  if (!user.active) return { ok: false, reason: 'Your Firebreak account is deactivated.' };
  return { ok: true };
}

function unmatchedReason(identity: ChatIdentity): string {
  switch (identity.unmatched?.reason) {
    case 'no_email':
      return (
        'Firebreak cannot tell which Firebreak user you are: your chat profile shows no e-mail address. ' +
        'Ask a Firebreak admin to set your chat user id on your Firebreak user.'
      );
    case 'invalid_id':
      return 'Firebreak cannot tell which Firebreak user you are: your chat user id is not one it accepts.';
    default:
      return (
        'Firebreak could not look you up in the chat workspace just now, so it cannot tell which ' +
        'Firebreak user you are and did nothing. Try again in a minute.'
      );
  }
}
