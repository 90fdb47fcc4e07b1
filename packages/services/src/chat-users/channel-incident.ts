import type { IncidentStatus } from '@firebreak/schema';
import type { ServiceContext } from '../context';

/** What a chat command needs to know about the incident a channel belongs to. */
export interface ChannelIncident {
  id: string;
  number: number;
  title: string;
  status: IncidentStatus;
  commander_id: string | null;
}

/**
 * The incident whose chat channel this is (`incidents.chat_channel_id`, unique), if any. Commands
 * like `/incident ack` name no incident: the channel they are typed in does.
 */
export async function findIncidentByChannel(
  ctx: ServiceContext,
  channelId: string,
): Promise<ChannelIncident | undefined> {
  const [row] = await ctx.sql<ChannelIncident[]>`
    select id, number, title, status, commander_id from incidents where chat_channel_id = ${channelId}`;
  return row;
}
