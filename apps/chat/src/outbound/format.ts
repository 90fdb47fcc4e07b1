import { type IncidentSeverity, type IncidentStatus, SLACK_USER_ID_PATTERN } from '@firebreak/schema';

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

/**
 * Slack gives `&`, `<` and `>` meaning (links, mentions such as `<!channel>`) in every text it shows,
 * the fallback `text`, topics and direct messages included; text from people and alert senders must
 * not, so it is escaped wherever it goes to chat.
 */
export function escapeMrkdwn(text: string): string {
  return text.replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/>/g, '&gt;');
}

/**
 * Escaped text within `max` characters (Slack's limits count the escaped form). A cut never leaves half
 * an entity (`&am…`), which Slack would show as garbage.
 */
export function escapeToFit(text: string, max: number): string {
  const escaped = escapeMrkdwn(text);
  if (escaped.length <= max) return escaped;
  if (max <= 1) return '';
  return `${escaped.slice(0, max - 1).replace(/&[a-z]{0,3}$/, '')}…`;
}

/** A mention when we know the person's chat id (it notifies them), else their name. */
export function personRef(person: { slackUserId?: string | null; name?: string | null }, fallback: string) {
  // Only a well-formed id becomes a mention: the id goes into `<@…>` verbatim.
  if (person.slackUserId && SLACK_USER_ID_PATTERN.test(person.slackUserId)) return `<@${person.slackUserId}>`;
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
