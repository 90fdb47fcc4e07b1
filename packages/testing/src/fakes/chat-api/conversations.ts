import {
  bool,
  channelJson,
  conversation,
  fail,
  isAnswer,
  isMember,
  type MethodContext,
  type MethodHandler,
  type SlackArgs,
  scopeError,
  str,
} from './shared';
import type { FakeChannel } from './state';
import { channelNameError, TOPIC_MAX_LENGTH } from './validation';

const ok = (ctx: MethodContext, channel: FakeChannel, extra: Record<string, unknown> = {}) => ({
  ok: true,
  channel: channelJson(ctx, channel),
  ...extra,
});

const create: MethodHandler = (ctx, args) => {
  const name = str(args.name);
  const isPrivate = bool(args.is_private);
  const denied = scopeError(ctx, 'conversations.create', isPrivate);
  if (denied) return denied;
  const invalid = channelNameError(name);
  if (invalid) return fail(invalid);
  if (ctx.ws.nameTaken(name!)) return fail('name_taken');
  return ok(ctx, ctx.ws.addChannel({ name: name!, isPrivate }));
};

const rename: MethodHandler = (ctx, args) => {
  const channel = conversation(ctx, 'conversations.rename', args);
  if (isAnswer(channel)) return channel;
  if (channel.isIm) return fail('method_not_supported_for_channel_type');
  if (channel.archived) return fail('is_archived');
  if (!isMember(ctx, channel)) return fail('not_in_channel');
  // Only the creator (or an admin, which a bot never is) may rename.
  if (channel.creator !== ctx.ws.identity.botUserId) return fail('not_authorized');
  const name = str(args.name);
  const invalid = channelNameError(name);
  if (invalid) return fail(invalid);
  if (name === channel.name) return ok(ctx, channel);
  if (ctx.ws.nameTaken(name!, channel)) return fail('name_taken');
  channel.previousNames.unshift(channel.name);
  channel.name = name!;
  return ok(ctx, channel);
};

function setText(field: 'topic' | 'purpose', method: string): MethodHandler {
  return (ctx, args) => {
    const channel = conversation(ctx, method, args);
    if (isAnswer(channel)) return channel;
    if (channel.isIm) return fail('method_not_supported_for_channel_type');
    if (channel.archived) return fail('is_archived');
    if (!isMember(ctx, channel)) return fail('not_in_channel');
    const value = str(args[field]) ?? '';
    if (value.length > TOPIC_MAX_LENGTH) return fail('too_long');
    channel[field] = {
      value,
      creator: ctx.ws.identity.botUserId,
      last_set: Math.floor(Date.now() / 1000),
    };
    return ok(ctx, channel);
  };
}

const join: MethodHandler = (ctx, args) => {
  const channel = conversation(ctx, 'conversations.join', args);
  if (isAnswer(channel)) return channel;
  // A bot can't join a private channel; it must be invited.
  if (channel.isPrivate || channel.isIm) return fail('method_not_supported_for_channel_type');
  if (channel.archived) return fail('is_archived');
  if (isMember(ctx, channel)) {
    return ok(ctx, channel, {
      warning: 'already_in_channel',
      response_metadata: { warnings: ['already_in_channel'] },
    });
  }
  channel.members.add(ctx.ws.identity.botUserId);
  return ok(ctx, channel);
};

const invite: MethodHandler = (ctx, args) => {
  const channel = conversation(ctx, 'conversations.invite', args);
  if (isAnswer(channel)) return channel;
  if (channel.isIm) return fail('method_not_supported_for_channel_type');
  const users = (str(args.users) ?? '')
    .split(',')
    .map((u) => u.trim())
    .filter(Boolean);
  if (users.length === 0) return fail('no_user');
  if (channel.archived) return fail('is_archived');
  if (!isMember(ctx, channel)) return fail('not_in_channel');
  for (const user of users) {
    if (user === ctx.ws.identity.botUserId) return fail('cant_invite_self');
    if (!ctx.ws.users.has(user)) return fail('user_not_found');
    if (channel.members.has(user)) return fail('already_in_channel');
  }
  for (const user of users) channel.members.add(user);
  return ok(ctx, channel);
};

const archive: MethodHandler = (ctx, args) => {
  const channel = conversation(ctx, 'conversations.archive', args);
  if (isAnswer(channel)) return channel;
  if (channel.isIm) return fail('method_not_supported_for_channel_type');
  if (channel.archived) return fail('already_archived');
  if (!isMember(ctx, channel)) return fail('not_in_channel');
  channel.archived = true;
  return { ok: true };
};

const info: MethodHandler = (ctx, args) => {
  const channel = conversation(ctx, 'conversations.info', args);
  return isAnswer(channel) ? channel : ok(ctx, channel);
};

/** Opens (or finds) the bot's DM with one user. Group DMs are not modelled. */
const open: MethodHandler = (ctx, args: SlackArgs) => {
  const denied = scopeError(ctx, 'conversations.open', false);
  if (denied) return denied;
  const byId = str(args.channel);
  if (byId) {
    const existing = ctx.ws.channels.get(byId);
    if (!existing?.isIm) return fail('channel_not_found');
    return { ok: true, no_op: true, already_open: true, channel: { id: existing.id } };
  }
  const users = (str(args.users) ?? '').split(',').filter(Boolean);
  if (users.length === 0) return fail('users_list_not_supplied');
  if (users.length > 1) return fail('fake_group_dm_not_supported');
  const user = ctx.ws.users.get(users[0]!);
  if (!user || user.deleted) return fail('user_not_found');
  const { channel, existed } = ctx.ws.imWith(user.id);
  const shape = bool(args.return_im) ? channelJson(ctx, channel) : { id: channel.id };
  return existed
    ? { ok: true, no_op: true, already_open: true, channel: shape }
    : { ok: true, channel: shape };
};

export const conversationMethods: Record<string, MethodHandler> = {
  'conversations.create': create,
  'conversations.rename': rename,
  'conversations.setTopic': setText('topic', 'conversations.setTopic'),
  'conversations.setPurpose': setText('purpose', 'conversations.setPurpose'),
  'conversations.join': join,
  'conversations.invite': invite,
  'conversations.archive': archive,
  'conversations.info': info,
  'conversations.open': open,
};
