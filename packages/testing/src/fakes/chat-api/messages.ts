import {
  fail,
  isMember,
  type MethodContext,
  type MethodHandler,
  type SlackAnswer,
  type SlackArgs,
  scopeError,
  str,
  userJson,
} from './shared';
import type { FakeChannel } from './state';
import { blocksError } from './validation';

/** chat.update refuses text over 4,000 characters (`msg_too_long`). */
const UPDATE_TEXT_MAX_LENGTH = 4000;
const MESSAGE_FIELDS = new Set(['channel', 'text', 'blocks', 'thread_ts', 'token', 'ts', 'user']);

const blocksOf = (args: SlackArgs): unknown[] | undefined =>
  Array.isArray(args.blocks) ? (args.blocks as unknown[]) : undefined;

/** Shared checks of every message method: blocks well-formed and something to show. */
function contentError(args: SlackArgs): SlackAnswer | null {
  const badBlocks = blocksError(args.blocks);
  if (badBlocks) return fail(badBlocks);
  const hasBlocks = (blocksOf(args)?.length ?? 0) > 0;
  if (!str(args.text) && !hasBlocks && args.attachments === undefined) return fail('no_text');
  return null;
}

/** chat.postMessage takes an id, a `#name`, a name, or a user id (which posts into the bot's DM). */
function target(ctx: MethodContext, ref: string | undefined): FakeChannel | undefined {
  const channel = ctx.ws.find(ref);
  if (channel) return channel;
  const user = ref ? ctx.ws.users.get(ref) : undefined;
  return user && !user.deleted ? ctx.ws.imWith(user.id).channel : undefined;
}

/** Posting needs membership, except in DMs and, with `chat:write.public`, in public channels. */
function mayPost(ctx: MethodContext, channel: FakeChannel): boolean {
  if (channel.isIm || isMember(ctx, channel)) return true;
  return !channel.isPrivate && ctx.scopes.has('chat:write.public');
}

const authTest: MethodHandler = (ctx) => {
  const id = ctx.ws.identity;
  return {
    ok: true,
    url: `https://${id.teamDomain}.slack.com/`,
    team: id.teamName,
    user: id.botName,
    team_id: id.teamId,
    user_id: id.botUserId,
    bot_id: id.botId,
    is_enterprise_install: false,
  };
};

const postMessage: MethodHandler = (ctx, args) => {
  const denied = scopeError(ctx, 'chat.postMessage', false);
  if (denied) return denied;
  const channel = target(ctx, str(args.channel));
  if (!channel) return fail('channel_not_found');
  if (channel.archived) return fail('is_archived');
  if (!mayPost(ctx, channel)) return fail('not_in_channel');
  const invalid = contentError(args);
  if (invalid) return invalid;
  const { botUserId, botId } = ctx.ws.identity;
  const ts = ctx.ws.nextTs();
  const text = str(args.text);
  const blocks = blocksOf(args);
  const threadTs = str(args.thread_ts);
  const rest = Object.fromEntries(Object.entries(args).filter(([k]) => !MESSAGE_FIELDS.has(k)));
  channel.messages.push({
    channel: channel.id,
    ts,
    text,
    blocks,
    threadTs,
    user: botUserId,
    postedAt: new Date(),
    edits: [],
    args: rest,
  });
  const message = { type: 'message', subtype: 'bot_message', text, user: botUserId, bot_id: botId, ts };
  return {
    ok: true,
    channel: channel.id,
    ts,
    message: { ...message, ...(blocks ? { blocks } : {}), ...(threadTs ? { thread_ts: threadTs } : {}) },
  };
};

const update: MethodHandler = (ctx, args) => {
  const denied = scopeError(ctx, 'chat.update', false);
  if (denied) return denied;
  const channel = ctx.ws.channels.get(str(args.channel) ?? '');
  if (!channel || channel.deleted) return fail('channel_not_found');
  // Slack: "The message cannot be edited within a frozen, archived or deleted channel."
  if (channel.archived) return fail('is_inactive');
  const message = channel.messages.find((m) => m.ts === str(args.ts));
  if (!message) return fail('message_not_found');
  if (message.user !== ctx.ws.identity.botUserId) return fail('cant_update_message');
  const text = str(args.text);
  const blocks = blocksOf(args);
  if (text === undefined && args.blocks === undefined) return fail('no_text');
  if ((text?.length ?? 0) > UPDATE_TEXT_MAX_LENGTH) return fail('msg_too_long');
  const badBlocks = blocksError(args.blocks);
  if (badBlocks) return fail(badBlocks);
  const at = new Date();
  message.edits.push({ text: message.text, blocks: message.blocks, at });
  // Documented: omitted `blocks` keep the previous blocks; an empty array removes them.
  if (text !== undefined) message.text = text;
  if (blocks !== undefined) message.blocks = blocks;
  ctx.ws.updates.push({
    channel: channel.id,
    ts: message.ts,
    text: message.text,
    blocks: message.blocks,
    at,
  });
  return {
    ok: true,
    channel: channel.id,
    ts: message.ts,
    text: message.text,
    message: { text: message.text, ...(message.blocks ? { blocks: message.blocks } : {}) },
  };
};

const postEphemeral: MethodHandler = (ctx, args) => {
  const denied = scopeError(ctx, 'chat.postEphemeral', false);
  if (denied) return denied;
  const channel = ctx.ws.find(str(args.channel));
  if (!channel) return fail('channel_not_found');
  if (channel.archived) return fail('is_archived');
  if (!mayPost(ctx, channel)) return fail('not_in_channel');
  const user = str(args.user);
  if (!user || !ctx.ws.users.has(user)) return fail('user_not_found');
  if (!channel.isIm && !channel.members.has(user)) return fail('user_not_in_channel');
  const invalid = contentError(args);
  if (invalid) return invalid;
  const messageTs = ctx.ws.nextTs();
  ctx.ws.ephemerals.push({
    channel: channel.id,
    user,
    text: str(args.text),
    blocks: blocksOf(args),
    threadTs: str(args.thread_ts),
    messageTs,
    postedAt: new Date(),
  });
  return { ok: true, message_ts: messageTs };
};

const usersInfo: MethodHandler = (ctx, args) => {
  const denied = scopeError(ctx, 'users.info', false);
  if (denied) return denied;
  const user = ctx.ws.users.get(str(args.user) ?? '');
  return user ? { ok: true, user: userJson(ctx, user) } : fail('user_not_found');
};

const lookupByEmail: MethodHandler = (ctx, args) => {
  const denied = scopeError(ctx, 'users.lookupByEmail', false);
  if (denied) return denied;
  const email = str(args.email)?.toLowerCase();
  const user = [...ctx.ws.users.values()].find((u) => email && u.email?.toLowerCase() === email);
  return user ? { ok: true, user: userJson(ctx, user) } : fail('users_not_found');
};

export const messageMethods: Record<string, MethodHandler> = {
  'auth.test': authTest,
  'chat.postMessage': postMessage,
  'chat.update': update,
  'chat.postEphemeral': postEphemeral,
  'users.info': usersInfo,
  'users.lookupByEmail': lookupByEmail,
};
