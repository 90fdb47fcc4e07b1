import { z } from 'zod';

/** The chat platforms Firebreak talks to (docs/teams.md); an incident gets a channel on each that is on. */
export const ChatPlatformName = z.enum(['slack', 'teams']);
export type ChatPlatformName = z.infer<typeof ChatPlatformName>;

/**
 * A Microsoft Teams user as Firebreak knows them: their Microsoft Entra object id, a GUID (the Bot
 * Connector's `from.aadObjectId`, Graph's user `id`). Lowercase, as both send it.
 */
export const TEAMS_USER_ID_PATTERN = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/;

/** The incident's channel on one platform. */
export const IncidentChatChannel = z.object({
  platform: ChatPlatformName,
  id: z.string(),
  name: z.string(),
});
export type IncidentChatChannel = z.infer<typeof IncidentChatChannel>;
