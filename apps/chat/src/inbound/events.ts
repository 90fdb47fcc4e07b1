import type { Logger } from '@firebreak/logger';
import { claimChatEvent, findIncidentByChannel, type ServiceContext } from '@firebreak/services';
import { z } from 'zod';

const Envelope = z.object({
  type: z.string(),
  challenge: z.string().optional(),
  event_id: z.string().optional(),
  event: z
    .object({ type: z.string(), user: z.string().optional(), channel: z.string().optional() })
    .optional(),
  authorizations: z
    .array(z.object({ user_id: z.string().optional(), is_bot: z.boolean().optional() }))
    .optional(),
});

export type EventAnswer = { challenge: string } | null;

/**
 * Events API deliveries (docs/integrations/slack.md#events). `url_verification` answers its challenge;
 * of the callbacks only the bot losing a channel matters, and it is only logged: the outbound side joins
 * again before its next post (`not_in_channel` → join, docs/integrations/slack.md#failures). Everything
 * else is acknowledged and dropped. Slack retries slow answers with the same `event_id`, so handled events
 * are claimed once in `chat_events`.
 */
export async function handleEvent(ctx: ServiceContext, logger: Logger, body: unknown): Promise<EventAnswer> {
  const parsed = Envelope.safeParse(body);
  if (!parsed.success) {
    logger.info('chat: event ignored');
    return null;
  }
  const envelope = parsed.data;
  if (envelope.type === 'url_verification') return { challenge: envelope.challenge ?? '' };
  const event = envelope.event;
  if (envelope.type !== 'event_callback' || !event || !envelope.event_id) return null;

  const botUserId = envelope.authorizations?.find((a) => a.is_bot)?.user_id;
  const botLeft =
    event.type === 'channel_left' || (event.type === 'member_left_channel' && event.user === botUserId);
  if (!botLeft || !event.channel) return null;

  if (!(await claimChatEvent(ctx, envelope.event_id))) {
    logger.info({ event_id: envelope.event_id }, 'chat: duplicate event ignored');
    return null;
  }
  const incident = await findIncidentByChannel(ctx, event.channel);
  logger.warn(
    {
      event_id: envelope.event_id,
      channel_id: event.channel,
      ...(incident ? { incident_id: incident.id, number: incident.number } : {}),
    },
    'chat: bot removed from channel',
  );
  return null;
}
