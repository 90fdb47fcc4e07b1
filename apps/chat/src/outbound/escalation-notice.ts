import {
  type ChatIncident,
  chatPageLinkUrl,
  readChatEntry,
  readChatIncident,
  readDirectMessagesSent,
  recordDirectMessage,
} from '@firebreak/services';
import { isRefusal } from './errors';
import { reportRefusal } from './failures';
import { flushChannel } from './flush';
import type { ChatJob } from './job';

interface Target {
  id?: string | null;
  name?: string;
  slack_user_id?: string | null;
  teams_user_id?: string | null;
  /** False when the person's notification rules leave chat out (docs/paging.md#rules). */
  chat_page?: boolean;
}

/**
 * `chat.escalation_notice` (docs/integrations/slack.md#posting): a direct message to each target with a chat
 * id, then the mention in the channel (posted in `seq` order with the rest of the timeline). Paging comes
 * first and does not wait for the channel: a channel still being opened, or one that never will be, must not
 * delay or prevent a page. Each direct message is recorded, so a retry pages nobody twice.
 */
export async function sendEscalationNotice(jc: ChatJob, entryId: string): Promise<void> {
  const entry = await readChatEntry(jc.session, entryId);
  if (!entry || entry.incident_id !== jc.incidentId || entry.type !== 'escalation_triggered') return;
  const incident = await readChatIncident(jc.session);
  if (!incident) return;
  // A notice that arrives after someone took the incident (the job waited out a chat outage) would
  // page for nothing; the channel still records the step. A step escalated by hand while the incident
  // was acknowledged (`while_acknowledged`) is someone asking for help: it pages until the incident is
  // resolved. A manual step taken while triggered is a page like a timer's: taken meanwhile, it is late.
  const wanted =
    incident.status === 'triggered' ||
    (entry.data.while_acknowledged === true && incident.status === 'acknowledged');
  if (wanted) await sendDirectMessages(jc, incident, entryId, entry.data.targets);
  else
    jc.ctx.logger.info({ incident_id: incident.id, entry_id: entryId }, 'chat: page skipped, incident taken');
  await flushChannel(jc, entry.seq);
}

async function sendDirectMessages(
  jc: ChatJob,
  incident: ChatIncident,
  entryId: string,
  targets: unknown,
): Promise<void> {
  // Chat id → the person's Firebreak id (for their acknowledge link), once per chat id.
  const people = new Map<string, string | null>();
  for (const target of (targets as Target[] | undefined) ?? []) {
    const chatId = jc.platform.chatIdOf(target);
    if (target.chat_page === false || typeof chatId !== 'string' || chatId === '') continue;
    if (!people.get(chatId)) people.set(chatId, target.id ?? null);
  }
  const done = await readDirectMessagesSent(jc.session, entryId);
  for (const [userId, personId] of people) {
    if (done.has(userId)) continue;
    // Through the session: a page must not wait for a second pooled connection (chat-channel/page-link.ts).
    const ackUrl = personId
      ? await chatPageLinkUrl(jc.session, { publicUrl: jc.publicUrl, userId: personId })
      : undefined;
    const message = jc.platform.render.page(incident, jc.publicUrl, incident.chat_channel_id, ackUrl);
    const record = { entryId, chatUserId: userId };
    try {
      const messageId = await jc.call('direct_message', (platform) =>
        platform.sendDirectMessage(userId, message),
      );
      await recordDirectMessage(jc.session, { ...record, messageTs: messageId });
    } catch (error) {
      if (!isRefusal(error)) throw error;
      await recordDirectMessage(jc.session, { ...record, messageTs: null, error: error.code });
      await reportRefusal(jc, error, { [`${jc.platform.name}_user_id`]: userId });
    }
  }
}
