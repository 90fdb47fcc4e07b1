/**
 * Just enough of a TwiML reader for the fake to act as a caller would hear it: what `<Say>` says, the
 * `<Gather>` that waits for a key, the SMS `<Message>` replies. Real Twilio fails a call whose document
 * is not `<Response>` XML (error 12100, "Document parse failure"), so this refuses that too.
 */

export interface TwimlGather {
  /** As written in the document (relative URLs are resolved against the document's URL by Twilio). */
  action: string | undefined;
  numDigits: number | undefined;
  method: string;
  /** What is said inside the `<Gather>` while it waits. */
  said: string[];
}

export interface ParsedTwiml {
  /** Every `<Say>`, in document order, inside a `<Gather>` or not. */
  said: string[];
  gather: TwimlGather | undefined;
  /** The text of each `<Message>` (an SMS reply). */
  messages: string[];
  hangup: boolean;
}

export class TwimlError extends Error {}

const ENTITIES: Record<string, string> = { amp: '&', lt: '<', gt: '>', quot: '"', apos: "'" };

function decode(text: string): string {
  return text.replace(/&(#x[0-9a-f]+|#\d+|amp|lt|gt|quot|apos);/gi, (_, entity: string) => {
    if (entity.startsWith('#x') || entity.startsWith('#X'))
      return String.fromCodePoint(parseInt(entity.slice(2), 16));
    if (entity.startsWith('#')) return String.fromCodePoint(Number(entity.slice(1)));
    return ENTITIES[entity.toLowerCase()] ?? '';
  });
}

function attributes(tag: string): Record<string, string> {
  const found: Record<string, string> = {};
  for (const match of tag.matchAll(/([A-Za-z:]+)\s*=\s*"([^"]*)"/g)) found[match[1]!] = decode(match[2]!);
  return found;
}

function texts(xml: string, element: string): string[] {
  return [...xml.matchAll(new RegExp(`<${element}(?:\\s[^>]*)?>([\\s\\S]*?)</${element}>`, 'g'))].map((m) =>
    decode(m[1]!).trim(),
  );
}

export function parseTwiml(document: string): ParsedTwiml {
  const body = document.replace(/^\s*<\?xml[^>]*\?>/, '').trim();
  if (!/^<Response(\s[^>]*)?>[\s\S]*<\/Response>$/.test(body) && !/^<Response\s*\/>$/.test(body)) {
    throw new TwimlError('12100 Document parse failure: the document is not a <Response> element');
  }
  const gatherMatch = /<Gather(\s[^>]*)?>([\s\S]*?)<\/Gather>|<Gather(\s[^>]*)?\/>/.exec(body);
  let gather: TwimlGather | undefined;
  if (gatherMatch) {
    const attrs = attributes(gatherMatch[1] ?? gatherMatch[3] ?? '');
    gather = {
      action: attrs.action,
      numDigits: attrs.numDigits === undefined ? undefined : Number(attrs.numDigits),
      // Twilio's default for a Gather's action is POST.
      method: (attrs.method ?? 'POST').toUpperCase(),
      said: texts(gatherMatch[2] ?? '', 'Say'),
    };
  }
  return {
    said: texts(body, 'Say'),
    gather,
    messages: texts(body, 'Message'),
    hangup: /<Hangup\s*\/>|<Hangup>\s*<\/Hangup>/.test(body),
  };
}
