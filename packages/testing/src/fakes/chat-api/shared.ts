import type { ChatWorkspace, FakeChannel, FakeChatUser } from './state';
import { acceptedScopes } from './validation';

/** Arguments as the Web API receives them: form fields (strings) or JSON values. */
export type SlackArgs = Record<string, unknown>;
/** Every Web API answer is `{ok: true, …}` or `{ok: false, error, …}`. */
export type SlackAnswer = { ok: boolean; [key: string]: unknown };

export interface MethodContext {
  ws: ChatWorkspace;
  scopes: ReadonlySet<string>;
}

export type MethodHandler = (ctx: MethodContext, args: SlackArgs) => SlackAnswer;

export const fail = (error: string, extra: Record<string, unknown> = {}): SlackAnswer => ({
  ok: false,
  error,
  ...extra,
});

/** Form fields are strings; JSON bodies may carry numbers. Anything else counts as absent. */
export function str(value: unknown): string | undefined {
  if (typeof value === 'string') return value;
  if (typeof value === 'number') return String(value);
  return undefined;
}

export const bool = (value: unknown): boolean => value === true || value === 'true' || value === '1';

/** `missing_scope` carries the accepted scopes in `needed` and the token's scopes in `provided`. */
export function scopeError(ctx: MethodContext, method: string, isPrivate: boolean): SlackAnswer | null {
  const accepted = acceptedScopes(method, isPrivate);
  if (!accepted || accepted.some((s) => ctx.scopes.has(s))) return null;
  return fail('missing_scope', { needed: accepted.join(','), provided: [...ctx.scopes].join(',') });
}

export const isMember = (ctx: MethodContext, channel: FakeChannel): boolean =>
  channel.members.has(ctx.ws.identity.botUserId);

/**
 * conversations.* take channel ids only (a name answers `channel_not_found`, as in Slack). Private
 * channels the bot is not in are invisible to it. The scope check comes first, like Slack's.
 */
export function conversation(ctx: MethodContext, method: string, args: SlackArgs): FakeChannel | SlackAnswer {
  const found = ctx.ws.channels.get(str(args.channel) ?? '');
  const channel = found && !found.deleted ? found : undefined;
  const denied = scopeError(ctx, method, channel?.isPrivate ?? false);
  if (denied) return denied;
  if (!channel || (channel.isPrivate && !isMember(ctx, channel))) return fail('channel_not_found');
  return channel;
}

export const isAnswer = (value: FakeChannel | SlackAnswer): value is SlackAnswer => 'ok' in value;

/** The conversation object, shaped like the one Slack's `conversations.*` methods answer. */
export function channelJson(ctx: MethodContext, c: FakeChannel): Record<string, unknown> {
  if (c.isIm) {
    return { id: c.id, created: c.created, is_im: true, is_org_shared: false, user: c.imUser, priority: 0 };
  }
  return {
    id: c.id,
    name: c.name,
    is_channel: !c.isPrivate,
    is_group: c.isPrivate,
    is_im: false,
    is_private: c.isPrivate,
    created: c.created,
    creator: c.creator,
    is_archived: c.archived,
    is_general: false,
    name_normalized: c.name,
    is_member: isMember(ctx, c),
    topic: { ...c.topic },
    purpose: { ...c.purpose },
    previous_names: [...c.previousNames],
    num_members: c.members.size,
  };
}

export function userJson(ctx: MethodContext, u: FakeChatUser): Record<string, unknown> {
  const realName = u.realName ?? u.name;
  return {
    id: u.id,
    team_id: ctx.ws.identity.teamId,
    name: u.name,
    deleted: u.deleted ?? false,
    real_name: realName,
    tz: u.tz ?? 'UTC',
    is_bot: u.isBot ?? false,
    profile: {
      email: u.email,
      display_name: u.name,
      real_name: realName,
      image_72: `https://avatars.example.invalid/${u.id}_72.png`,
    },
  };
}
