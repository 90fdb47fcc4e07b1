import type { IncidentSeverity, IncidentStatus, TimelineEntryType } from '@firebreak/schema';
import type { ChatEntry, ChatIncident, ShiftNoticeMessage } from '@firebreak/services';
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
 * How a platform marks text up: what each entry says is written once (below), and each platform's
 * markup makes it Slack's mrkdwn or Teams' markdown. `escape` makes people's and senders' text inert;
 * `person` mentions someone when the platform can, else names them.
 */
export interface ChatMarkup {
  escape(text: string): string;
  /** Already escaped text, in bold / in italics. */
  bold(text: string): string;
  italic(text: string): string;
  link(url: string, label: string): string;
  person(person: { slackUserId?: string | null; name?: string | null }, fallback: string): string;
}

/** Slack's mrkdwn (format.ts). */
export const slackMarkup: ChatMarkup = {
  escape: escapeMrkdwn,
  bold: (text) => `*${text}*`,
  italic: (text) => `_${text}_`,
  link: (url, label) => `<${url}|${label}>`,
  person: personRef,
};

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

const actorOf = (m: ChatMarkup, entry: Entry) =>
  m.person({ slackUserId: entry.actor_slack_user_id, name: entry.actor_name }, m.bold('someone'));

const str = (value: unknown): string => (typeof value === 'string' ? value : '');

function statusText(m: ChatMarkup, entry: Entry): string {
  const to = entry.data.to as IncidentStatus;
  const by = actorOf(m, entry);
  if (to === 'acknowledged') return `👀 ${m.bold('Acknowledged')} by ${by}${viaText(entry.data.via)}.`;
  if (to === 'resolved') {
    const mttr = entry.data.mttr_seconds;
    const took = typeof mttr === 'number' ? ` Time to resolve: ${formatDuration(mttr)}.` : '';
    return `✅ ${m.bold('Resolved')} by ${by}.${took}`;
  }
  return `Status changed to ${m.bold(statusLabel[to] ?? m.escape(str(to)))} by ${by}.`;
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

function commanderText(m: ChatMarkup, entry: Entry): string {
  const commander = entry.data.commander as Person | null;
  if (!commander) return `🧑‍✈️ ${actorOf(m, entry)} cleared the incident lead.`;
  const who = m.person(
    { slackUserId: entry.commander_slack_user_id, name: commander.name },
    m.bold('someone'),
  );
  return `🧑‍✈️ ${who} is now the incident lead.`;
}

/** The channel mention of an escalation step; the direct messages are sent by the notice job. */
function escalationText(m: ChatMarkup, entry: Entry): string {
  const targets = (entry.data.targets as Person[] | undefined) ?? [];
  const policy = (entry.data.policy as { name?: string } | undefined)?.name;
  const round = Number(entry.data.round ?? 1);
  const step = `tier ${entry.data.tier}${round > 1 ? `, round ${round}` : ''}${policy ? ` of ${m.italic(m.escape(policy))}` : ''}`;
  const who = targets.map((t) => m.person({ slackUserId: t.slack_user_id, name: t.name }, m.bold('someone')));
  return who.length
    ? `🚨 ${m.bold('Escalation')} (${step}): paging ${who.join(', ')}.`
    : `🚨 ${m.bold('Escalation')} (${step}): nobody is on call for this step.`;
}

/** The chat message for one timeline entry of `CHANNEL_ENTRY_TYPES`, in Slack's mrkdwn. */
export function renderEntry(entry: Entry): ChatMessage {
  return renderEntryWith(slackMarkup, entry);
}

/** The chat message for one timeline entry of `CHANNEL_ENTRY_TYPES`, in the platform's markup. */
export function renderEntryWith(m: ChatMarkup, entry: Entry): ChatMessage {
  const data = entry.data;
  switch (entry.type) {
    case 'message':
      return { text: `📝 ${actorOf(m, entry)}: ${m.escape(str(data.text))}` };
    case 'status_changed':
      return { text: statusText(m, entry) };
    case 'severity_changed': {
      const from = severityLabel[data.from as IncidentSeverity] ?? m.escape(str(data.from));
      const to = severityLabel[data.to as IncidentSeverity] ?? m.escape(str(data.to));
      return { text: `Severity changed from ${m.bold(from)} to ${m.bold(to)} by ${actorOf(m, entry)}.` };
    }
    case 'commander_assigned':
      return { text: commanderText(m, entry) };
    case 'alert_linked': {
      const what = data.refired ? 'fired again' : 'linked';
      return {
        text: `🔔 Alert ${what}: ${m.bold(m.escape(str(data.title)))} (${m.escape(str(data.severity))}).`,
      };
    }
    case 'alerts_all_resolved':
      return { text: '🟢 All alerts of this incident are resolved. Resolve the incident once it is over.' };
    case 'escalation_triggered':
      return { text: escalationText(m, entry) };
    case 'storm_started':
      return {
        text:
          `🌩️ ${m.bold('Alert storm')}: more than ${Number(data.threshold_incidents)} incidents opened within ` +
          `${Number(data.window_minutes)} minutes. Alerts that would each open an incident join this one ` +
          'until the storm calms; each is posted here.',
      };
    case 'storm_calmed':
      return {
        text: `🌤️ The storm has calmed (${Number(data.absorbed_alerts)} alerts joined it). New alerts open incidents again.`,
      };
    default:
      return { text: `${entry.type.replace(/_/g, ' ')} (${actorOf(m, entry)}).` };
  }
}

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
  const channel = channelId ? ` · <#${channelId}>` : '';
  return { text: `${pageTextWith(slackMarkup, incident, publicUrl, ackUrl)}${channel}` };
}

/** A page's text in the platform's markup: the incident, a link to it and the acknowledge link. */
export function pageTextWith(
  m: ChatMarkup,
  incident: ChatIncident,
  publicUrl: string,
  ackUrl?: string,
): string {
  const link = m.link(incidentUrl(publicUrl, incident.number), 'Open in Firebreak');
  const ack = ackUrl ? ` · ${m.link(ackUrl, 'Acknowledge')}` : '';
  const about = m.bold(`INC-${incident.number}: ${m.escape(incident.title)}`);
  return `🚨 You are being paged for ${about} (${severityLabel[incident.severity]}). ${link}${ack}`;
}

/** The direct message telling someone their shift has started (docs/schedules.md#shift-notices). */
export function shiftNoticeTextWith(m: ChatMarkup, message: ShiftNoticeMessage): string {
  return `You are on call for ${m.bold(m.escape(message.scheduleName))} ${message.lasts}.`;
}

export const shiftNoticeText = (message: ShiftNoticeMessage) => shiftNoticeTextWith(slackMarkup, message);
