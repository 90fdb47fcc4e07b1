import { isUtf8 } from 'node:buffer';
import { fileTypeFromBuffer } from 'file-type';

export interface SniffedType {
  /** The Content-Type the file is stored and served with. */
  mime: string;
  /** The usual extension of that type, for a file whose name was empty. */
  ext: string | null;
  /** Whether the bytes are a format `file-type` knows, rather than text or unknown bytes. */
  recognised: boolean;
}

/**
 * Types a browser would run script in if it ever rendered the file (HTML, SVG and XML). `file-type`
 * reports plain XML, and any of them may be added to it later; they are kept as text instead, so a
 * download can never become a page of ours even where the response headers are lost (a proxy, a saved
 * file opened from disk).
 */
function isActiveContent(mime: string): boolean {
  return (
    mime === 'text/html' ||
    mime.endsWith('/xml') ||
    mime.endsWith('+xml') ||
    /javascript|ecmascript/.test(mime)
  );
}

/** Valid UTF-8 without NUL: what a person would open in a text editor. Checked in place, not decoded. */
function isText(bytes: Uint8Array): boolean {
  return !bytes.includes(0) && isUtf8(bytes);
}

/**
 * The content type of `bytes`, from the bytes alone (docs/attachments.md#content-types): the client's
 * declared type is never trusted, since a page that says `image/png` may send HTML. What `file-type`
 * recognises by its magic numbers is kept; anything else is `text/plain` when it reads as UTF-8 text,
 * else `application/octet-stream`.
 */
export async function sniffContentType(bytes: Uint8Array): Promise<SniffedType> {
  const detected = await fileTypeFromBuffer(bytes);
  if (detected && !isActiveContent(detected.mime)) {
    return { mime: detected.mime, ext: detected.ext, recognised: true };
  }
  return isText(bytes)
    ? { mime: 'text/plain', ext: 'txt', recognised: false }
    : { mime: 'application/octet-stream', ext: null, recognised: false };
}
