import type { ChatPlatformName } from '@firebreak/schema';
import type { Queryable } from './client';

/**
 * The platform of a `chat_failed` or `chat_channel_created` timeline entry aliased `alias`, as a SQL
 * expression. Entries written before a second chat platform existed name none: they are Slack's.
 */
export const entryPlatform = (sql: Queryable, alias: string) =>
  sql`coalesce(${sql(alias)}.data ->> 'platform', 'slack')`;

/**
 * What such an entry records of its platform: nothing for Slack, so Slack's entries read as they always
 * have (to the API, the console, outgoing webhooks); `platform` for any other.
 */
export const entryPlatformData = (platform: ChatPlatformName): { platform?: ChatPlatformName } =>
  platform === 'slack' ? {} : { platform };
