import { chatErrorCode, retryAfterSeconds } from '@firebreak/chat-client';
import { ErrorCode } from '@slack/web-api';
import type { ChatProblem, RefusalReason } from '../chat-platform';

// `rate_limited` and `message_limit_exceeded` come as `ok: false` bodies (chat.postMessage's own
// limits); Grafana OnCall treats them as rate limits too (docs/integrations/slack.md#failures).
const RATE_LIMIT_CODES = new Set(['ratelimited', 'rate_limited', 'message_limit_exceeded']);
const TRANSIENT_CODES = new Set(['internal_error', 'fatal_error', 'service_unavailable', 'request_timeout']);
const DEFAULT_RETRY_AFTER_S = 5;

/**
 * Slack's refusal codes the incident logic acts on. `restricted_action` and `not_authorized` stop a
 * rename (the workspace forbids it); an invite refused for them waits for an admin like any refusal
 * about the installation. The person-specific ones are the invite's (invites.ts).
 */
const REASONS: Record<string, RefusalReason> = {
  name_taken: 'name_taken',
  not_in_channel: 'not_in_channel',
  not_authorized: 'not_permitted',
  restricted_action: 'not_permitted',
  already_in_channel: 'already_member',
  // The commander may be the bot's own user in a test workspace: the bot is never invited.
  cant_invite_self: 'already_member',
  user_not_found: 'about_the_person',
  no_user: 'about_the_person',
  user_disabled: 'about_the_person',
  user_is_restricted: 'about_the_person',
  user_is_ultra_restricted: 'about_the_person',
  cant_invite: 'about_the_person',
  ura_max_channels: 'about_the_person',
  invitee_cant_see_channel: 'about_the_person',
};

function refusalReason(code: string): RefusalReason {
  return REASONS[code] ?? (code.startsWith('invalid_name') ? 'invalid_name' : 'other');
}

/** A Web API failure in the shared categories; undefined for errors that are not Slack's. */
export function classifySlackError(error: unknown): ChatProblem | undefined {
  const retryAfter = retryAfterSeconds(error);
  if (retryAfter !== undefined) return { kind: 'rate_limited', code: 'ratelimited', retryAfterS: retryAfter };
  const code = chatErrorCode(error);
  if (code !== undefined) {
    if (RATE_LIMIT_CODES.has(code)) return { kind: 'rate_limited', code, retryAfterS: DEFAULT_RETRY_AFTER_S };
    if (TRANSIENT_CODES.has(code)) return { kind: 'transient', code };
    return { kind: 'refused', code, reason: refusalReason(code) };
  }
  const { code: kind, statusCode } = error as { code?: unknown; statusCode?: unknown };
  if (kind === ErrorCode.HTTPError) return { kind: 'transient', code: `http_${String(statusCode)}` };
  if (kind === ErrorCode.RequestError) return { kind: 'transient', code: 'network_error' };
  return undefined;
}
