import type { TimelineEntry } from '@firebreak/schema';
import { formatBytes } from './attachment-format';
import { formatDateTime, formatDuration } from './format';

/** Every timeline entry type (docs/api.md, "Timeline") as a line a person reads; unknown data degrades gently. */

type Data = Record<string, unknown>;
const str = (value: unknown) => (typeof value === 'string' ? value : value == null ? '' : String(value));
const nameOf = (value: unknown) =>
  value && typeof value === 'object' && 'name' in value ? str((value as { name: unknown }).name) : '';

export const entryTitle: Record<TimelineEntry['type'], string> = {
  incident_created: 'Opened',
  status_changed: 'Status',
  severity_changed: 'Severity',
  message: 'Note',
  alert_linked: 'Alert',
  commander_assigned: 'Commander',
  ai_summary: 'AI summary',
  escalation_triggered: 'Escalation',
  chat_channel_created: 'Chat',
  chat_failed: 'Chat failure',
  alerts_all_resolved: 'Alerts',
  postmortem_drafted: 'Post-mortem',
  postmortem_status_changed: 'Post-mortem',
  handoff_digest: 'Hand-off',
  storm_started: 'Storm',
  storm_calmed: 'Storm',
  chat_message: 'Chat',
  status_update_published: 'Status page',
  attachment_added: 'Attachment',
  attachment_deleted: 'Attachment',
};

export function entryText(entry: Pick<TimelineEntry, 'type' | 'data'>): string {
  const d: Data = entry.data;
  switch (entry.type) {
    case 'incident_created':
      return `Incident opened (${str(d.severity)}, from ${str(d.source) || 'unknown source'}): ${str(d.title)}`;
    case 'status_changed': {
      const mttr =
        typeof d.mttr_seconds === 'number' ? ` — time to resolve ${formatDuration(d.mttr_seconds)}` : '';
      return `${str(d.from)} → ${str(d.to)}${viaText(d.via)}${mttr}`;
    }
    case 'severity_changed':
      return `${str(d.from)} → ${str(d.to)}`;
    case 'message':
      return str(d.text);
    case 'alert_linked':
      return `${d.refired ? 'Fired again' : 'Linked'}: ${str(d.title)} (${str(d.severity)}${d.source ? `, ${str(d.source)}` : ''})`;
    case 'commander_assigned': {
      const now = nameOf(d.commander);
      return now
        ? `${now} is the commander`
        : `Commander cleared${nameOf(d.previous) ? ` (was ${nameOf(d.previous)})` : ''}`;
    }
    case 'ai_summary':
      return str(d.text);
    case 'escalation_triggered': {
      const targets = Array.isArray(d.targets) ? d.targets.map(nameOf).filter(Boolean).join(', ') : '';
      const how = d.manual === true ? ' (escalated by hand)' : '';
      return `Tier ${str(d.tier)} of ${nameOf(d.policy) || 'the policy'} paged${how}${targets ? `: ${targets}` : ' (nobody on call)'}`;
    }
    case 'chat_channel_created':
      return `Channel #${str(d.channel_name)} created`;
    case 'chat_failed':
      return `Chat ${str(d.operation)} failed: ${str(d.code)}`;
    case 'alerts_all_resolved':
      return 'Every linked alert is resolved; the incident stays open until someone resolves it.';
    case 'postmortem_drafted':
      // `applied: false`: people had edited the text, so the draft waits beside it on the post-mortem page.
      return d.applied === false
        ? 'An AI post-mortem draft is ready; people’s text was kept (see the post-mortem page).'
        : 'An AI post-mortem draft is ready (see the post-mortem page).';
    case 'postmortem_status_changed':
      return `Post-mortem ${postmortemStatusText(d.from)} → ${postmortemStatusText(d.to)}`;
    case 'handoff_digest':
      return str(d.text) || 'Included in a shift hand-off digest.';
    case 'chat_message':
      return str(d.text);
    case 'status_update_published':
      return `Public update published on the status page (${publicUpdateStatus(d.status)})`;
    case 'attachment_added': {
      const size = typeof d.size === 'number' ? `, ${formatBytes(d.size)}` : '';
      return `Attached ${str(d.filename)} (${str(d.content_type) || 'unknown type'}${size})`;
    }
    case 'attachment_deleted':
      return `Deleted the attachment ${str(d.filename)}`;
    case 'storm_started':
      return `Alert storm: more than ${str(d.threshold_incidents)} incidents from alerts within ${str(d.window_minutes)} min; further alerts are linked here instead of opening incidents`;
    case 'storm_calmed':
      return d.reason === 'resolved'
        ? `Storm over (incident resolved) after ${str(d.absorbed_alerts)} alerts; alerts open incidents again`
        : `Storm calmed at ${typeof d.calmed_at === 'string' ? formatDateTime(d.calmed_at) : 'an unknown time'} after ${str(d.absorbed_alerts)} alerts; alerts open incidents again`;
  }
}

/** How a page was acknowledged without logging in (docs/paging.md#acknowledge-links), in chat's words. */
function viaText(via: unknown): string {
  const ways: Record<string, string> = {
    link: 'the page’s link',
    sms: 'SMS',
    voice: 'phone',
    push: 'push notification',
  };
  return typeof via === 'string' && ways[via] ? ` (by ${ways[via]})` : '';
}

/** A post-mortem's status as people say it (docs/postmortems.md#statuses). */
function postmortemStatusText(status: unknown): string {
  const words: Record<string, string> = { draft: 'draft', in_review: 'in review', published: 'published' };
  return words[str(status)] ?? str(status);
}

/** A public update's status as the status page writes it (docs/status-page.md). */
function publicUpdateStatus(status: unknown): string {
  const words: Record<string, string> = {
    investigating: 'Investigating',
    identified: 'Identified',
    monitoring: 'Monitoring',
    resolved: 'Resolved',
  };
  return words[str(status)] ?? str(status);
}
