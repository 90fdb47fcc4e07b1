import { chat } from '@firebreak/db';
import type { ChatPlatformName } from '@firebreak/schema';
import type { ServiceContext } from '../context';

/** What a chat command needs to know about the incident a channel belongs to. */
export type ChannelIncident = chat.ChannelIncident;

/**
 * The incident whose chat channel (on `platform`, Slack unless named) this is, if any. Commands like
 * `/incident ack` name no incident: the channel they are typed in does.
 */
export async function findIncidentByChannel(
  ctx: ServiceContext,
  channelId: string,
  platform: ChatPlatformName = 'slack',
): Promise<ChannelIncident | undefined> {
  return chat.findIncidentByChannel(ctx.sql, platform, channelId);
}
