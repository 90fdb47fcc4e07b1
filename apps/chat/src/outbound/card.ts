import { createHash } from 'node:crypto';
import type { ChatIncident } from '@firebreak/services';
import { TOPIC_MAX_LENGTH, truncate } from './channel-name';
import {
  type ChatBlock,
  type ChatMessage,
  chatDate,
  escapeMrkdwn,
  escapeToFit,
  formatDuration,
  incidentUrl,
  personRef,
  severityEmoji,
  severityLabel,
  statusLabel,
} from './format';

type Incident = ChatIncident;

/** The card's buttons; the inbound half handles these `action_id`s, each button's value is the incident id. */
export const CARD_ACTIONS = {
  acknowledge: 'incident_acknowledge',
  lead: 'incident_lead',
  escalate: 'incident_escalate',
  resolve: 'incident_resolve',
} as const;

const button = (text: string, actionId: string, value: string, style?: 'primary' | 'danger') => ({
  type: 'button',
  action_id: actionId,
  text: { type: 'plain_text', text, emoji: true },
  value,
  ...(style ? { style } : {}),
});

const field = (label: string, value: string) => ({ type: 'mrkdwn', text: `*${label}:*\n${value}` });

function sourceText(incident: Incident): string {
  const alerts = incident.alert_count === 1 ? '1 alert' : `${incident.alert_count} alerts`;
  if (incident.source === 'alert') return `Alert (${alerts})`;
  const kind = incident.source === 'chat' ? 'Chat' : 'Manual';
  return incident.alert_count > 0 ? `${kind} (${alerts})` : kind;
}

function contextText(incident: Incident, publicUrl: string): string {
  const parts = [`Opened ${chatDate(incident.created_at)}`];
  if (incident.status === 'resolved' && incident.mttr_seconds !== null) {
    parts.push(`Resolved in ${formatDuration(incident.mttr_seconds)}`);
  } else if (incident.all_alerts_resolved) {
    parts.push('🟢 All alerts resolved');
  }
  parts.push(`<${incidentUrl(publicUrl, incident.number)}|Open in Firebreak>`);
  return parts.join(' · ');
}

/**
 * The incident card (docs/integrations/slack.md#card), rendered from the incident as it is now; `chat.update`
 * replaces it wholesale when the state changes. Acknowledge is offered while triggered, Make me Lead,
 * Escalate (page the next tier now) and Resolve until resolved; a resolved card has no buttons.
 */
export function renderCard(incident: Incident, publicUrl: string): ChatMessage {
  const resolved = incident.status === 'resolved';
  const severity = severityLabel[incident.severity];
  const status = statusLabel[incident.status];
  const heading = resolved ? '✅ [RESOLVED] ' : `${severityEmoji[incident.severity]} `;
  const lead = incident.commander_id
    ? personRef({ slackUserId: incident.commander_slack_user_id, name: incident.commander_name }, '_Unknown_')
    : '_Unassigned_';
  const description = incident.description.trim();
  const actions = [
    ...(incident.status === 'triggered'
      ? [button('Acknowledge', CARD_ACTIONS.acknowledge, incident.id, 'primary')]
      : []),
    button('Make me Lead', CARD_ACTIONS.lead, incident.id),
    button('Escalate', CARD_ACTIONS.escalate, escalateValue(incident)),
    button('Resolve', CARD_ACTIONS.resolve, incident.id, 'danger'),
  ];
  const blocks: ChatBlock[] = [
    {
      type: 'header',
      text: {
        type: 'plain_text',
        text: escapeToFit(`${heading}INC-${incident.number}: ${incident.title}`, 150),
        emoji: true,
      },
    },
    {
      type: 'section',
      block_id: 'incident_summary',
      ...(description ? { text: { type: 'mrkdwn', text: escapeToFit(description, 3000) } } : {}),
      fields: [
        field('Status', status),
        field('Severity', severity),
        field('Lead', lead),
        field('Source', sourceText(incident)),
      ],
    },
    { type: 'context', elements: [{ type: 'mrkdwn', text: contextText(incident, publicUrl) }] },
  ];
  if (!resolved) blocks.push({ type: 'actions', block_id: 'incident_actions', elements: actions });
  // The fallback is what notifications show: an alert titled `<!channel>` must not page a channel.
  const text = `INC-${incident.number} [${severity.toUpperCase()}] ${escapeMrkdwn(incident.title)} — ${status}`;
  return { text, blocks };
}

/**
 * The Escalate button's value: the incident and the tier the card shows as next (`<id>:<tier>`), so
 * two clicks at once page one tier (the second is told it was paged). The tier is part of the card's
 * digest, so the card is edited after each step and the button keeps naming the next tier.
 */
export function escalateValue(incident: Pick<Incident, 'id' | 'next_tier'>): string {
  return incident.next_tier === null ? incident.id : `${incident.id}:${incident.next_tier}`;
}

/** What the card shows, in short: it is edited only when this changes. */
export function cardDigest(card: ChatMessage): string {
  return createHash('sha256').update(JSON.stringify(card)).digest('hex').slice(0, 32);
}

/** Topic (no mentions: title and name escaped): title, severity and commander, the title shortened to fit. */
export function channelTopic(incident: Incident): string {
  const lead = escapeToFit(incident.commander_name ?? 'unassigned', 80);
  const rest = ` · ${severityLabel[incident.severity]} · Lead: ${lead}`;
  const head = `INC-${incident.number}: `;
  return `${head}${escapeToFit(incident.title, TOPIC_MAX_LENGTH - head.length - rest.length)}${rest}`;
}

/** Purpose (Slack's channel description): what the incident is about and where to find it. */
export function channelPurpose(incident: Incident, publicUrl: string): string {
  const url = ` · ${incidentUrl(publicUrl, incident.number)}`;
  const about = incident.description.trim() || incident.title;
  const shortened = escapeToFit(about.replace(/\s+/g, ' '), Math.max(40, TOPIC_MAX_LENGTH - url.length));
  return truncate(`${shortened}${url}`, TOPIC_MAX_LENGTH);
}

/**
 * The resolved channel's topic starts with the literal the rename asked for
 * (docs/integrations/slack.md#rename).
 */
export function resolvedTopic(literal: string, incident: Incident): string {
  const head = `${literal} · `;
  return `${head}${escapeToFit(incident.title, TOPIC_MAX_LENGTH - head.length)}`;
}
