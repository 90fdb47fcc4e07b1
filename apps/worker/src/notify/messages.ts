import type { EmailMessage } from './email-sender';

/** What every page says, whatever carries it (docs/paging.md#what-a-page-says). */
export interface PageContent {
  incident: { id: string; number: number; title: string; severity: string };
  person: string;
  /** The incident in the console. */
  incidentUrl: string;
  /** The one-click acknowledge link (a page with a single button: a GET never acknowledges). */
  ackUrl: string;
  /** The code to text back, for SMS and voice pages. */
  ackCode: string | null;
}

const subjectOf = (p: PageContent) =>
  `[Firebreak] #${p.incident.number} ${p.incident.severity}: ${p.incident.title}`;

export function pageEmail(to: string, p: PageContent): EmailMessage {
  const text = [
    `${p.person}, you are paged for incident #${p.incident.number}.`,
    '',
    `Title: ${p.incident.title}`,
    `Severity: ${p.incident.severity}`,
    '',
    `Acknowledge: ${p.ackUrl}`,
    `Open the incident: ${p.incidentUrl}`,
    '',
    'The acknowledge link opens a page with one button; it works for 24 hours, without logging in.',
  ].join('\n');
  const html = `<!doctype html><html><body style="font-family:sans-serif">
<p>${escapeHtml(p.person)}, you are paged for incident <strong>#${p.incident.number}</strong>.</p>
<table cellpadding="4"><tr><td>Title</td><td><strong>${escapeHtml(p.incident.title)}</strong></td></tr>
<tr><td>Severity</td><td>${escapeHtml(p.incident.severity)}</td></tr></table>
<p><a href="${escapeHtml(p.ackUrl)}" style="display:inline-block;padding:10px 18px;background:#b91c1c;color:#fff;text-decoration:none;border-radius:4px">Acknowledge</a>
&nbsp; <a href="${escapeHtml(p.incidentUrl)}">Open the incident</a></p>
<p style="color:#666;font-size:12px">The acknowledge link works for 24 hours, without logging in.</p>
</body></html>`;
  return { to, subject: subjectOf(p), text, html };
}

// One text of at most about 300 characters: a long title is cut so that the code and link always fit.
const SMS_TITLE_CHARS = 80;

/** Short, ending with the reply that acknowledges and the link. */
export function pageSms(p: PageContent): string {
  const title =
    p.incident.title.length > SMS_TITLE_CHARS
      ? `${p.incident.title.slice(0, SMS_TITLE_CHARS - 1)}…`
      : p.incident.title;
  const reply = p.ackCode ? ` Reply ACK ${p.ackCode} to acknowledge` : ' Acknowledge';
  return `Firebreak #${p.incident.number} ${p.incident.severity}: ${title}.${reply}: ${p.ackUrl}`;
}

export function pagePush(p: PageContent) {
  return {
    title: `#${p.incident.number} ${p.incident.severity}: ${p.incident.title}`,
    body: `${p.person}, you are paged. Acknowledge from here or open the incident.`,
    incident_id: p.incident.id,
    url: p.incidentUrl,
    // The push notification's button POSTs this; `via=push` names the way on the timeline.
    ack_url: `${p.ackUrl}?via=push`,
    tag: `incident-${p.incident.id}`,
  };
}

export function codeEmail(to: string, code: string): EmailMessage {
  const text = `Your Firebreak verification code is ${code}. It works for 10 minutes.`;
  return { to, subject: `Firebreak verification code ${code}`, text, html: `<p>${text}</p>` };
}

export const codeSms = (code: string) =>
  `Your Firebreak verification code is ${code}. It works for 10 minutes.`;

export function testEmail(to: string): EmailMessage {
  const text = 'This is a test notification from Firebreak. Pages will reach you here.';
  return { to, subject: 'Firebreak test notification', text, html: `<p>${text}</p>` };
}

export const testSms = 'This is a test notification from Firebreak. Pages will reach you here.';

function escapeHtml(text: string): string {
  return text.replace(/[&<>"']/g, (c) => `&#${c.charCodeAt(0)};`);
}
