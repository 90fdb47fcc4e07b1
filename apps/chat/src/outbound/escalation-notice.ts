import {
  type ChatIncident,
  readChatEntry,
  readChatIncident,
  readDirectMessagesSent,
  recordDirectMessage,
} from '@firebreak/services';
import { isRefusal } from './errors';
import { reportRefusal } from './failures';
import { flushChannel } from './flush';
import type { ChatJob } from './job';
import { pageText } from './messages';

interface Target {
  name?: string;
  slack_user_id?: string | null;
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
  // page for nothing; the channel still records the step.
  if (incident.status === 'triggered') await sendDirectMessages(jc, incident, entryId, entry.data.targets);
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
  const userIds = new Set(
    ((targets as Target[] | undefined) ?? [])
      .map((t) => t.slack_user_id)
      .filter((id): id is string => typeof id === 'string' && id !== ''),
  );
  const done = await readDirectMessagesSent(jc.session, entryId);
  const message = pageText(incident, jc.publicUrl, incident.chat_channel_id);
  for (const userId of userIds) {
    if (done.has(userId)) continue;
    const record = { entryId, slackUserId: userId };
    try {
      const opened = await jc.call('direct_message', (client) =>
        client.conversations.open({ users: userId }),
      );
      const channel = opened.channel?.id ?? userId;
      const posted = await jc.call('direct_message', (client) =>
        client.chat.postMessage({ channel, text: message.text, unfurl_links: false }),
      );
      await recordDirectMessage(jc.session, { ...record, messageTs: posted.ts ?? null });
    } catch (error) {
      if (!isRefusal(error)) throw error;
      await recordDirectMessage(jc.session, { ...record, messageTs: null, error: error.code });
      await reportRefusal(jc, error, { slack_user_id: userId });
    }
  }
}
