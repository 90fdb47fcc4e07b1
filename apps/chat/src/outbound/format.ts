import type { IncidentSeverity, IncidentStatus } from '@firebreak/schema';

/** What one chat message carries; `text` is always set (the notification and screen-reader fallback). */
export interface ChatMessage {
  text: string;
  blocks?: ChatBlock[];
}

/** A Block Kit block, built as a plain object (the Web API's own types are too narrow to build with). */
export type ChatBlock = { type: string } & Record<string, unknown>;

export const severityLabel: Record<IncidentSeverity, string> = {
  critical: 'Critical',
  high: 'High',
  medium: 'Medium',
  low: 'Low',
};

export const severityEmoji: Record<IncidentSeverity, string> = {
  critical: '🔴',
  high: '🟠',
  medium: '🟡',
  low: '🔵',
};

export const statusLabel: Record<IncidentStatus, string> = {
  triggered: 'Triggered',
  acknowledged: 'Acknowledged',
  resolved: 'Resolved',
};

/** Slack's mrkdwn gives `&`, `<` and `>` meaning (links, mentions); text from people must not. */
export function escapeMrkdwn(text: string): string {
  return text.replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/>/g, '&gt;');
}

/** A mention when we know the person's chat id (it notifies them), else their name. */
export function personRef(person: { slackUserId?: string | null; name?: string | null }, fallback: string) {
  if (person.slackUserId) return `<@${person.slackUserId}>`;
  return person.name ? `*${escapeMrkdwn(person.name)}*` : fallback;
}

export function incidentUrl(publicUrl: string, number: number): string {
  return `${publicUrl}/incidents/${number}`;
}

const DURATION_UNITS: Array<[string, number]> = [
  ['d', 86_400],
  ['h', 3600],
  ['m', 60],
  ['s', 1],
];

/** `1h 5m`, `3d 2h`, `42s`: the two largest units, enough for a time to resolve. */
export function formatDuration(totalSeconds: number): string {
  let rest = Math.max(0, Math.round(totalSeconds));
  const counts = DURATION_UNITS.map(([unit, size]) => {
    const count = Math.floor(rest / size);
    rest -= count * size;
    return { unit, count };
  });
  const first = counts.findIndex((c) => c.count > 0);
  if (first < 0) return '0s';
  return counts
    .slice(first, first + 2)
    .filter((c) => c.count > 0)
    .map((c) => `${c.count}${c.unit}`)
    .join(' ');
}

/** Slack renders `<!date^…>` in each reader's own time zone; the fallback is UTC. */
export function chatDate(at: Date): string {
  const fallback = `${at.toISOString().slice(0, 16).replace('T', ' ')} UTC`;
  return `<!date^${Math.floor(at.getTime() / 1000)}^{date_short_pretty} at {time}|${fallback}>`;
}
