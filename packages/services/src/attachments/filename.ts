import { MAX_ATTACHMENT_FILENAME_BYTES } from '@firebreak/schema';

// C0 and C1 controls and DEL, and the bidirectional overrides and isolates that can make
// `invoice<U+202E>fdp.exe` read as `invoiceexe.pdf`.
// biome-ignore lint/suspicious/noControlCharactersInRegex: removing control characters is the point
const unsafeCharacters = /[\u0000-\u001f\u007f-\u009f\u200e\u200f\u202a-\u202e\u2066-\u2069]/g;
const encoder = new TextEncoder();

const byteLength = (text: string) => encoder.encode(text).byteLength;

/** The longest prefix of `text` that fits in `max` bytes of UTF-8, never splitting a character. */
function truncateBytes(text: string, max: number): string {
  let out = '';
  let used = 0;
  for (const char of text) {
    const size = byteLength(char);
    if (used + size > max) break;
    out += char;
    used += size;
  }
  return out;
}

/**
 * The name a file is stored under (docs/attachments.md#file-names): the last segment of whatever path
 * the client sent (either slash), without control or direction-changing characters, trimmed, at most
 * 255 bytes of UTF-8 with its extension kept when it must be shortened. An empty result becomes
 * `attachment` with the extension of the sniffed type.
 */
export function cleanFilename(raw: string, fallbackExt: string | null): string {
  const base = raw.normalize('NFC').split(/[/\\]/).pop() ?? '';
  // Trailing dots and spaces are dropped by Windows when the file is saved; leading spaces confuse.
  const name = base
    .replace(unsafeCharacters, '')
    .trim()
    .replace(/[. ]+$/, '');
  if (name === '' || /^\.+$/.test(name)) return fallbackExt ? `attachment.${fallbackExt}` : 'attachment';
  if (byteLength(name) <= MAX_ATTACHMENT_FILENAME_BYTES) return name;
  const dot = name.lastIndexOf('.');
  const ext = dot > 0 && byteLength(name.slice(dot)) <= 32 ? name.slice(dot) : '';
  const stem = ext ? name.slice(0, dot) : name;
  return truncateBytes(stem, MAX_ATTACHMENT_FILENAME_BYTES - byteLength(ext)) + ext;
}

/** Extensions an operating system hands to a browser or a script host when the saved file is opened. */
const activeExtensions = new Set(['html', 'htm', 'svg', 'xhtml', 'xml', 'js', 'mjs', 'mht', 'mhtml']);
const TXT = '.txt';

/**
 * `.txt` after the name of text (or unrecognised bytes) whose extension is an active one: the download
 * is never rendered by us, but a saved `report.html` opened from disk would run its script in a local
 * page (docs/attachments.md#file-names). The name stays within 255 bytes.
 */
export function disarmExtension(name: string): string {
  const dot = name.lastIndexOf('.');
  const ext = dot >= 0 ? name.slice(dot + 1).toLowerCase() : '';
  if (!activeExtensions.has(ext)) return name;
  return truncateBytes(name, MAX_ATTACHMENT_FILENAME_BYTES - TXT.length) + TXT;
}

/**
 * `Content-Disposition` for a download: always `attachment`, so a browser saves the file instead of
 * showing it; `filename` in plain ASCII for old clients (anything else, and quotes and backslashes,
 * become `_`), and the real name as RFC 5987 `filename*`.
 */
export function attachmentDisposition(filename: string): string {
  const ascii = filename.replace(/[^\x20-\x7e]|["\\]/g, '_');
  const encoded = encodeURIComponent(filename).replace(
    /['()*]/g,
    (c) => `%${c.charCodeAt(0).toString(16).toUpperCase()}`,
  );
  return `attachment; filename="${ascii}"; filename*=UTF-8''${encoded}`;
}
