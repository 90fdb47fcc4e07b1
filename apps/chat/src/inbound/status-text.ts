import type { IncidentStatusView } from '@firebreak/services';
import { escapeMrkdwn, incidentLabel } from './replies';

type Entry = IncidentStatusView['latest'][number];
type Data = Record<string, unknown>;

const str = (value: unknown): string =>
  typeof value === 'string' || typeof value === 'number' ? String(value) : '';
const nameOf = (value: unknown): string =>
  value && typeof value === 'object' ? str((value as { name?: unknown }).name) : '';
const clip = (text: string, max = 200) => (text.length > max ? `${text.slice(0, max)}…` : text);

/** One timeline entry in words, for people reading it in chat (the web UI has its own wording). */
export function entryInWords(entry: Entry): string {
  const d: Data = entry.data;
  switch (entry.type) {
    case 'incident_created':
      return `opened (${str(d.severity)}): ${str(d.title)}`;
    case 'status_changed':
      return `${str(d.from)} → ${str(d.to)}`;
    case 'severity_changed':
      return `severity ${str(d.from)} → ${str(d.to)}`;
    case 'message':
      return `note: ${clip(str(d.text))}`;
    case 'chat_message':
      return `said: ${clip(str(d.text))}`;
    case 'alert_linked':
      return `alert ${d.refired ? 'fired again' : 'linked'}: ${str(d.title)}`;
    case 'commander_assigned':
      return nameOf(d.commander) ? `${nameOf(d.commander)} is the lead` : 'lead cleared';
    case 'escalation_triggered': {
      const targets = Array.isArray(d.targets) ? d.targets.map(nameOf).filter(Boolean).join(', ') : '';
      return `tier ${str(d.tier)} paged${d.manual === true ? ' by hand' : ''}${targets ? `: ${targets}` : ' (nobody on call)'}`;
    }
    case 'ai_summary':
      return `AI summary: ${clip(str(d.text))}`;
    case 'chat_channel_created':
      return `channel #${str(d.channel_name)} created`;
    case 'chat_failed':
      return `chat ${str(d.operation)} failed: ${str(d.code)}`;
    case 'alerts_all_resolved':
      return 'every linked alert resolved';
    default:
      return entry.type.replace(/_/g, ' ');
  }
}

/** `/incident status`: state, severity, lead and the latest entries, oldest first (escaped). */
export function statusText(view: IncidentStatusView): string {
  const { incident, latest } = view;
  const lines = [
    `*${incidentLabel(incident.number)}: ${escapeMrkdwn(incident.title)}*`,
    `State: ${incident.status} · Severity: ${incident.severity} · Lead: ${escapeMrkdwn(incident.commander?.name ?? 'nobody')}`,
    latest.length > 0 ? `Latest ${latest.length} timeline entries:` : 'No timeline entries yet.',
    ...latest.map((entry) => {
      const who = entry.actor.name ? `${entry.actor.name}: ` : '';
      // The date too: an incident can last days, and "09:12" alone would not say which.
      const at = `${entry.created_at.slice(0, 10)} ${entry.created_at.slice(11, 16)}`;
      return `• ${at} UTC ${escapeMrkdwn(who + entryInWords(entry))}`;
    }),
  ];
  return lines.join('\n');
}
