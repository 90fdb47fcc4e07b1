import type { telegram } from '@firebreak/db';
import { escapeTelegramHtml as esc } from './bot-api';

// An AI summary is the one long text; cut well below Telegram's 4096 characters so the whole fits.
const MAX_SUMMARY_CHARS = 3500;
// A message sent this long after its event says when the event happened (a backlog after an outage).
const LATE_AFTER_MS = 60_000;

/**
 * The feed's message for one event (docs/telegram.md#what-is-sent), in HTML `parse_mode`: every value
 * that comes from people or alerts is escaped, so a title such as `<b>` is shown, not parsed. The title
 * and severity are the entry's own where it has them (as the incident was then, not as it is now).
 */
export function feedMessageText(head: telegram.FeedHead, publicUrl: string, now: Date): string {
  const ref = `#${head.incident_number}`;
  const title = esc(stringIn(head.entry_data, 'title') ?? head.incident_title);
  const severity = esc(stringIn(head.entry_data, 'severity') ?? head.incident_severity);
  const link = `<a href="${esc(`${publicUrl}/incidents/${head.incident_number}`)}">Open the incident</a>`;
  const by = head.actor_name ? ` by ${esc(head.actor_name)}` : '';
  const when =
    now.getTime() - head.entry_created_at.getTime() > LATE_AFTER_MS
      ? `\n<i>at ${eventTime(head.entry_created_at)}</i>`
      : '';
  switch (head.event) {
    case 'opened':
      return `🔴 <b>Incident ${ref} opened</b> (${severity})${when}\n${title}\n${link}`;
    case 'acknowledged':
      return `🟡 <b>Incident ${ref} acknowledged</b>${by}${when}\n${title}\n${link}`;
    case 'resolved':
      return `🟢 <b>Incident ${ref} resolved</b>${by}${when}\n${title}\n${link}`;
    case 'summary': {
      const text = stringIn(head.entry_data, 'text') ?? '';
      return `📝 <b>Incident ${ref}: AI summary</b>${when}\n${title}\n\n${esc(cutSummary(text))}\n${link}`;
    }
  }
}

/**
 * At most MAX_SUMMARY_CHARS UTF-16 units (what Telegram's limit counts), ending with an ellipsis when
 * cut, and never between the two halves of a surrogate pair: half an emoji is not valid UTF-8, which
 * Telegram refuses.
 */
export function cutSummary(text: string, max = MAX_SUMMARY_CHARS): string {
  if (text.length <= max) return text;
  let end = max - 1;
  const last = text.charCodeAt(end - 1);
  if (last >= 0xd800 && last <= 0xdbff) end -= 1;
  return `${text.slice(0, end)}…`;
}

function stringIn(data: Record<string, unknown>, key: string): string | undefined {
  const value = data[key];
  return typeof value === 'string' && value !== '' ? value : undefined;
}

/** `2026-01-01 12:00 UTC`: the server knows no reader's time zone, so it says which one it uses. */
function eventTime(at: Date): string {
  return `${at.toISOString().slice(0, 16).replace('T', ' ')} UTC`;
}
