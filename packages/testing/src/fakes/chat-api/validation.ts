/**
 * Slack's channel-name rules (docs/integrations/slack.md#channel-names): "Channel names may only contain
 * lowercase letters, numbers, hyphens, and underscores, and must be 80 characters or less". The fake is
 * ASCII-strict on purpose, so that a service which sends `[RESOLVED] #inc-42-…` or an upper-case slug fails
 * here the way it would fail against real Slack.
 */
export const CHANNEL_NAME_MAX_LENGTH = 80;

export type ChannelNameError =
  | 'invalid_name_required'
  | 'invalid_name_maxlength'
  | 'invalid_name_specials'
  | 'invalid_name_punctuation';

export function channelNameError(name: string | undefined): ChannelNameError | null {
  if (name === undefined || name === '') return 'invalid_name_required';
  if (/[^a-z0-9_-]/.test(name)) return 'invalid_name_specials';
  if (name.length > CHANNEL_NAME_MAX_LENGTH) return 'invalid_name_maxlength';
  if (/^[-_]+$/.test(name)) return 'invalid_name_punctuation';
  return null;
}

/** Topics and purposes: plain text, at most 250 characters (`too_long`). */
export const TOPIC_MAX_LENGTH = 250;

/** The scopes a freshly installed incident bot holds. `chat:write.public` is left out on purpose, so
 * posting to a channel the bot has left answers `not_in_channel` as Slack does
 * (docs/integrations/slack.md#failures). */
export const DEFAULT_BOT_SCOPES = [
  'channels:manage',
  'channels:join',
  'channels:read',
  'channels:write.topic',
  'channels:write.invites',
  'groups:read',
  'groups:write',
  'chat:write',
  'im:write',
  'mpim:write',
  'users:read',
  'users:read.email',
  'commands',
] as const;

/**
 * Bot scopes each method accepts (any one of them is enough), public-channel variant first. `null` means
 * the method needs no scope. Private channels use the `groups:*` equivalents.
 */
export function acceptedScopes(method: string, isPrivate: boolean): string[] | null {
  switch (method) {
    case 'auth.test':
      return null;
    case 'conversations.create':
    case 'conversations.rename':
    case 'conversations.archive':
      return isPrivate ? ['groups:write'] : ['channels:manage'];
    case 'conversations.setTopic':
    case 'conversations.setPurpose':
      return isPrivate ? ['groups:write', 'groups:write.topic'] : ['channels:manage', 'channels:write.topic'];
    case 'conversations.invite':
      return isPrivate
        ? ['groups:write', 'groups:write.invites']
        : ['channels:manage', 'channels:write.invites'];
    case 'conversations.join':
      return ['channels:join'];
    case 'conversations.info':
      return isPrivate ? ['groups:read'] : ['channels:read'];
    case 'conversations.open':
      return ['im:write', 'mpim:write'];
    case 'chat.postMessage':
    case 'chat.update':
    case 'chat.postEphemeral':
      return ['chat:write'];
    case 'users.info':
      return ['users:read'];
    case 'users.lookupByEmail':
      return ['users:read.email'];
    default:
      return null;
  }
}

/** `blocks` must be an array of objects with a `type`; Slack answers these two codes otherwise. */
export function blocksError(blocks: unknown): 'invalid_blocks_format' | 'invalid_blocks' | null {
  if (blocks === undefined) return null;
  if (!Array.isArray(blocks)) return 'invalid_blocks_format';
  if (blocks.length > 50) return 'invalid_blocks';
  const valid = blocks.every(
    (b) => typeof b === 'object' && b !== null && typeof (b as { type?: unknown }).type === 'string',
  );
  return valid ? null : 'invalid_blocks';
}
