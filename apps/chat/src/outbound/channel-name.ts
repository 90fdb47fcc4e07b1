/**
 * Incident channel names (docs/integrations/slack.md#channel-names): `inc-<number>-<slug>`, lowercase
 * `[a-z0-9-]`, at most 80 characters, the same rules Slack applies ("lowercase letters, numbers, hyphens, and
 * underscores, and must be 80 characters or less"). Long titles shorten the slug, never the `inc-<number>`
 * prefix, so the channel stays findable by number.
 */
export const CHANNEL_NAME_MAX_LENGTH = 80;

/** Lowercase ASCII letters, digits and single dashes: accents dropped (é → e), anything else a dash. */
export function slugify(text: string): string {
  return text
    .normalize('NFKD')
    .replace(/[\u0300-\u036f]/g, '')
    .toLowerCase()
    .replace(/[^a-z0-9-]+/g, '-')
    .replace(/-{2,}/g, '-')
    .replace(/^-+|-+$/g, '');
}

/**
 * How a platform names incident channels: the longest name it takes, and how a resolved channel's name
 * starts (the literal `[RESOLVED] ` prefix; Slack's adds the `#` of the spec's name). Teams allows 50
 * characters, so its incident channels get 39: the resolved literal then always fits.
 */
export interface ChannelNaming {
  maxLength: number;
  resolvedPrefix: string;
  /** The longest name of the closest valid name to the literal, when the literal is refused. */
  resolvedMaxLength: number;
}

export const SLACK_CHANNEL_NAMING: ChannelNaming = {
  maxLength: CHANNEL_NAME_MAX_LENGTH,
  resolvedPrefix: '[RESOLVED] #',
  resolvedMaxLength: CHANNEL_NAME_MAX_LENGTH,
};

/** `prefix + slug + suffix` within the limit, shortening the slug and trimming the dash it may end on. */
function fitName(prefix: string, slug: string, suffix: string, maxLength: number): string {
  const room = Math.max(0, maxLength - prefix.length - suffix.length);
  const cut = slug.slice(0, room).replace(/-+$/, '');
  return cut ? `${prefix}${cut}${suffix}` : `${prefix.replace(/-+$/, '')}${suffix}`;
}

/** `name_taken` → `-2`, `-3`…; past this many, something other than bad luck is going on. */
export const MAX_NAME_ATTEMPTS = 20;

const suffixOf = (attempt: number) => (attempt > 1 ? `-${attempt}` : '');

/** The `attempt`-th name to try: `name_taken` makes the next attempt add `-2`, `-3`… */
export function incidentChannelName(
  number: number,
  title: string,
  attempt = 1,
  naming: ChannelNaming = SLACK_CHANNEL_NAMING,
): string {
  return fitName(`inc-${number}-`, slugify(title), suffixOf(attempt), naming.maxLength);
}

/**
 * The name asked for on resolution (docs/integrations/slack.md#rename); no Slack channel can have it,
 * a Teams channel can (docs/teams.md).
 */
export function resolvedLiteral(channelName: string, naming: ChannelNaming = SLACK_CHANNEL_NAMING): string {
  return `${naming.resolvedPrefix}${channelName}`;
}

/**
 * The closest valid name to the literal (docs/integrations/slack.md#rename): `resolved-inc-<number>-<slug>`,
 * the slug shortened so that the whole stays within 80 characters.
 */
export function resolvedChannelName(
  channelName: string,
  attempt = 1,
  naming: ChannelNaming = SLACK_CHANNEL_NAMING,
): string {
  const match = /^(inc-\d+-?)(.*)$/.exec(channelName);
  const [prefix, rest] = match ? [`resolved-${match[1]}`, match[2] ?? ''] : ['resolved-', channelName];
  return fitName(prefix, rest, suffixOf(attempt), naming.resolvedMaxLength);
}

/** Topics are plain text of at most 250 characters. */
export const TOPIC_MAX_LENGTH = 250;

export function truncate(text: string, max: number): string {
  if (text.length <= max) return text;
  return max > 1 ? `${text.slice(0, max - 1)}…` : '';
}
