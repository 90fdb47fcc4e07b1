import type { ChatIncident } from '@firebreak/services';
import { CARD_ACTIONS, escalateValue } from '../../outbound/card';
import { TOPIC_MAX_LENGTH, truncate } from '../../outbound/channel-name';
import {
  type ChatMessage,
  formatDuration,
  incidentUrl,
  severityEmoji,
  severityLabel,
  statusLabel,
} from '../../outbound/format';
import { pageTextWith, renderEntryWith, shiftNoticeTextWith } from '../../outbound/messages';
import type { ChatRenderer } from '../chat-platform';
import { escapeTeamsMarkdown, teamsMarkup } from './markup';

/** The content type of an Adaptive Card attachment. */
export const ADAPTIVE_CARD = 'application/vnd.microsoft.card.adaptive';

const submit = (title: string, action: string, value: string, style?: 'positive' | 'destructive') => ({
  type: 'Action.Submit',
  title,
  // The Bot Connector sends `data` back as the activity's `value` (inbound.ts reads it).
  data: { firebreak_action: action, value },
  ...(style ? { style } : {}),
});

function sourceText(incident: ChatIncident): string {
  const alerts = incident.alert_count === 1 ? '1 alert' : `${incident.alert_count} alerts`;
  if (incident.source === 'alert') return `Alert (${alerts})`;
  const kind = incident.source === 'chat' ? 'Chat' : 'Manual';
  return incident.alert_count > 0 ? `${kind} (${alerts})` : kind;
}

/**
 * The incident card as an Adaptive Card (1.4, what Teams renders on every client), rendered from the
 * incident as it is now and replaced wholesale when it changes: heading, description, the facts, and
 * Acknowledge (while triggered), Make me Lead, Escalate and Resolve as `Action.Submit` buttons carrying
 * the incident id, as Slack's card does (outbound/card.ts). A resolved card has no buttons.
 */
function renderTeamsCard(incident: ChatIncident, publicUrl: string): ChatMessage {
  const resolved = incident.status === 'resolved';
  const heading = `${resolved ? '✅ [RESOLVED] ' : `${severityEmoji[incident.severity]} `}INC-${incident.number}: ${incident.title}`;
  const lead = incident.commander_id ? (incident.commander_name ?? 'Unknown') : 'Unassigned';
  const url = incidentUrl(publicUrl, incident.number);
  const footer = [`Opened ${incident.created_at.toISOString().slice(0, 16).replace('T', ' ')} UTC`];
  if (resolved && incident.mttr_seconds !== null)
    footer.push(`Resolved in ${formatDuration(incident.mttr_seconds)}`);
  else if (incident.all_alerts_resolved) footer.push('🟢 All alerts resolved');
  const description = incident.description.trim();
  const card = {
    type: 'AdaptiveCard',
    $schema: 'http://adaptivecards.io/schemas/adaptive-card.json',
    version: '1.4',
    body: [
      {
        type: 'TextBlock',
        text: escapeTeamsMarkdown(truncate(heading, 150)),
        weight: 'Bolder',
        size: 'Medium',
        wrap: true,
      },
      ...(description
        ? [{ type: 'TextBlock', text: escapeTeamsMarkdown(truncate(description, 3000)), wrap: true }]
        : []),
      {
        type: 'FactSet',
        facts: [
          { title: 'Status', value: statusLabel[incident.status] },
          { title: 'Severity', value: severityLabel[incident.severity] },
          { title: 'Lead', value: escapeTeamsMarkdown(lead) },
          { title: 'Source', value: sourceText(incident) },
        ],
      },
      { type: 'TextBlock', text: footer.join(' · '), isSubtle: true, size: 'Small', wrap: true },
    ],
    actions: [
      ...(resolved
        ? []
        : [
            ...(incident.status === 'triggered'
              ? [submit('Acknowledge', CARD_ACTIONS.acknowledge, incident.id, 'positive')]
              : []),
            submit('Make me Lead', CARD_ACTIONS.lead, incident.id),
            submit('Escalate', CARD_ACTIONS.escalate, escalateValue(incident)),
            submit('Resolve', CARD_ACTIONS.resolve, incident.id, 'destructive'),
          ]),
      { type: 'Action.OpenUrl', title: 'Open in Firebreak', url },
    ],
  };
  const text = `INC-${incident.number} [${severityLabel[incident.severity].toUpperCase()}] ${incident.title} — ${statusLabel[incident.status]}`;
  return { text: escapeTeamsMarkdown(text), blocks: [{ type: ADAPTIVE_CARD, content: card }] };
}

/** The channel's description: title, severity and lead (the topic of Slack's channel). */
function teamsTopic(incident: ChatIncident): string {
  const lead = incident.commander_name ?? 'unassigned';
  return truncate(
    `INC-${incident.number}: ${incident.title} · ${severityLabel[incident.severity]} · Lead: ${lead}`,
    TOPIC_MAX_LENGTH,
  );
}

/** Teams' look: Adaptive Cards and Teams markdown, from the same texts as Slack's (outbound/messages.ts). */
export const teamsRenderer: ChatRenderer = {
  card: renderTeamsCard,
  entry: (entry) => renderEntryWith(teamsMarkup, entry),
  topic: teamsTopic,
  // A Teams channel has one description, which the topic keeps up to date; the card says the rest.
  purpose: teamsTopic,
  resolvedTopic: (literal, incident) => truncate(`${literal} · ${incident.title}`, TOPIC_MAX_LENGTH),
  page: (incident, publicUrl, _channelId, ackUrl) => ({
    text: pageTextWith(teamsMarkup, incident, publicUrl, ackUrl),
  }),
  shiftNotice: (message) => shiftNoticeTextWith(teamsMarkup, message),
  plainText: escapeTeamsMarkdown,
};
