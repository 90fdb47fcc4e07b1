import { NOT_XML_TEXT, type PublicStatus } from '@firebreak/schema';
import { Feed } from 'feed';
import { updateStatusText } from './words';

/** A reader wants the recent news, not the history: the newest updates only. */
export const MAX_FEED_ENTRIES = 50;

/**
 * Characters XML 1.0 does not allow (C0 controls but tab, line feed and carriage return; U+FFFE,
 * U+FFFF; a surrogate without its pair): one of them makes the whole feed unreadable. The schema refuses
 * them in what people type; rows written before that rule, or by another path, are cleaned here.
 */
const NOT_XML = new RegExp(NOT_XML_TEXT.source, 'g');

/**
 * The `feed` package writes titles and contents as `type="html"` inside CDATA, as given: what someone
 * typed is escaped into HTML that shows it as text (which also keeps `]]>` out of the CDATA), line
 * breaks kept. The feed's own title is escaped by the package.
 */
function asHtml(text: string): string {
  return text
    .replace(NOT_XML, '')
    .replace(/&/g, '&amp;')
    .replace(/</g, '&lt;')
    .replace(/>/g, '&gt;')
    .replace(/"/g, '&quot;')
    .replace(/'/g, '&#39;')
    .replace(/\r?\n/g, '<br>');
}

/**
 * The page's Atom feed (docs/status-page.md#feed): one entry per published update of the listed
 * incidents, newest first, at most MAX_FEED_ENTRIES. Every address is under `publicBase`, the
 * installation's own (PUBLIC_URL, else the address the server announces at start), never the request's
 * Host header; an entry's id names the incident's public id and the update's time, so a reader shows
 * each update once.
 */
export function renderStatusFeed(status: PublicStatus, publicBase: string): string {
  const page = `${publicBase}/status`;
  const entries = status.incidents
    .flatMap((incident) => incident.updates.map((update) => ({ incident, update })))
    .sort((a, b) => b.update.created_at.localeCompare(a.update.created_at))
    .slice(0, MAX_FEED_ENTRIES);
  const feed = new Feed({
    id: page,
    title: status.title.replace(NOT_XML, ''),
    link: page,
    updated: new Date(entries[0]?.update.created_at ?? status.generated_at),
    feedLinks: { atom: `${page}/feed.atom` },
    generator: false,
    copyright: '',
  });
  for (const { incident, update } of entries) {
    const at = new Date(update.created_at);
    feed.addItem({
      title: asHtml(`${updateStatusText[update.status]}: ${incident.heading}`),
      id: `${page}#incident-${incident.id}-update-${at.getTime()}`,
      link: `${page}#incident-${incident.id}`,
      date: at,
      published: at,
      content: asHtml(update.body),
    });
  }
  return feed.atom1();
}
