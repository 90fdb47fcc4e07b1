import type { IncidentSeverity, IncidentStatus, TimelineEntryType } from '@firebreak/schema';
import type { ChatEntry, ChatIncident } from '@firebreak/services';
import {
  type ChatMessage,
  escapeMrkdwn,
  formatDuration,
  incidentUrl,
  personRef,
  severityLabel,
  statusLabel,
} from './format';

type Entry = ChatEntry;

/**
 * The timeline entries the channel hears, in `seq` order. `incident_created` is the card itself;
 * `chat_channel_created`, `chat_failed` and the AI entries are records about the channel or for the
 * web UI, not news for the people in it.
 */
export const CHANNEL_ENTRY_TYPES: readonly TimelineEntryType[] = [
  'message',
  'status_changed',
  'severity_changed',
  'commander_assigned',
  'alert_linked',
  'alerts_all_resolved',
  'escalation_triggered',
  'storm_started',
  'storm_calmed',
];

interface Person {
  id?: string | null;
  name?: string | null;
  slack_user_id?: string | null;
}

const actorOf = (entry: Entry) =>
  personRef({ slackUserId: entry.actor_slack_user_id, name: entry.actor_name }, '*someone*');

const str = (value: unknown): string => (typeof value === 'string' ? value : '');

function statusText(entry: Entry): string {
  const to = entry.data.to as IncidentStatus;
  const by = actorOf(entry);
  if (to === 'acknowledged') return `👀 *Acknowledged* by ${by}${viaText(entry.data.via)}.`;
  if (to === 'resolved') {
    const mttr = entry.data.mttr_seconds;
    const took = typeof mttr === 'number' ? ` Time to resolve: ${formatDuration(mttr)}.` : '';
    return `✅ *Resolved* by ${by}.${took}`;
  }
  return `Status changed to *${statusLabel[to] ?? str(to)}* by ${by}.`;
}

/** How a page was acknowledged without logging in (docs/paging.md#acknowledge-links), if it was. */
function viaText(via: unknown): string {
  const ways: Record<string, string> = {
    link: 'the page’s link',
    sms: 'SMS',
    voice: 'phone',
    push: 'push notification',
  };
  return typeof via === 'string' && ways[via] ? ` (by ${ways[via]})` : '';
}

function commanderText(entry: Entry): string {
  const commander = entry.data.commander as Person | null;
  if (!commander) return `🧑‍✈️ ${actorOf(entry)} cleared the incident lead.`;
  const who = personRef({ slackUserId: entry.commander_slack_user_id, name: commander.name }, '*someone*');
  return `🧑‍✈️ ${who} is now the incident lead.`;
}

/** The channel mention of an escalation step; the direct messages are sent by the notice job. */
export function escalationText(entry: Entry): string {
  const targets = (entry.data.targets as Person[] | undefined) ?? [];
  const policy = (entry.data.policy as { name?: string } | undefined)?.name;
  const round = Number(entry.data.round ?? 1);
  const step = `tier ${entry.data.tier}${round > 1 ? `, round ${round}` : ''}${policy ? ` of _${escapeMrkdwn(policy)}_` : ''}`;
  const who = targets.map((t) => personRef({ slackUserId: t.slack_user_id, name: t.name }, '*someone*'));
  return who.length
    ? `🚨 *Escalation* (${step}): paging ${who.join(', ')}.`
    : `🚨 *Escalation* (${step}): nobody is on call for this step.`;
}

/** The chat message for one timeline entry of `CHANNEL_ENTRY_TYPES`. */
export function renderEntry(entry: Entry): ChatMessage {
  const data = entry.data;
  switch (entry.type) {
    case 'message':
      return { text: `📝 ${actorOf(entry)}: ${escapeMrkdwn(str(data.text))}` };
    case 'status_changed':
      return { text: statusText(entry) };
    case 'severity_changed': {
      const from = severityLabel[data.from as IncidentSeverity] ?? str(data.from);
      const to = severityLabel[data.to as IncidentSeverity] ?? str(data.to);
      return { text: `Severity changed from *${from}* to *${to}* by ${actorOf(entry)}.` };
    }
    case 'commander_assigned':
      return { text: commanderText(entry) };
    case 'alert_linked': {
      const what = data.refired ? 'fired again' : 'linked';
      return { text: `🔔 Alert ${what}: *${escapeMrkdwn(str(data.title))}* (${str(data.severity)}).` };
    }
    case 'alerts_all_resolved':
      return { text: '🟢 All alerts of this incident are resolved. Resolve the incident once it is over.' };
    case 'escalation_triggered':
      return { text: escalationText(entry) };
    case 'storm_started':
      return {
        text:
          `🌩️ *Alert storm*: more than ${Number(data.threshold_incidents)} incidents opened within ` +
          `${Number(data.window_minutes)} minutes. Alerts that would each open an incident join this one ` +
          'until the storm calms; each is posted here.',
      };
    case 'storm_calmed':
      return {
        text: `🌤️ The storm has calmed (${Number(data.absorbed_alerts)} alerts joined it). New alerts open incidents again.`,
      };
    default:
      return { text: `${entry.type.replace(/_/g, ' ')} (${actorOf(entry)}).` };
  }
}

/** The direct message of an escalation step to one of its targets. */
/**
 * A page by direct message. `ackUrl` is the person's own one-click acknowledge link (docs/paging.md), so
 * a page read on a phone's chat app can be taken without logging in to Firebreak there.
 */
export function pageText(
  incident: ChatIncident,
  publicUrl: string,
  channelId: string | null,
  ackUrl?: string,
): ChatMessage {
  const link = `<${incidentUrl(publicUrl, incident.number)}|Open in Firebreak>`;
  const ack = ackUrl ? ` · <${ackUrl}|Acknowledge>` : '';
  const channel = channelId ? ` · <#${channelId}>` : '';
  const about = `*INC-${incident.number}: ${escapeMrkdwn(incident.title)}* (${severityLabel[incident.severity]})`;
  return { text: `🚨 You are being paged for ${about}. ${link}${ack}${channel}` };
}
