import { createHash } from 'node:crypto';

/** The first argument that is a string with something besides whitespace, trimmed; else null. */
export function firstText(...candidates: unknown[]): string | null {
  for (const candidate of candidates) {
    if (typeof candidate === 'string' && candidate.trim() !== '') return candidate.trim();
  }
  return null;
}

/**
 * Cuts `text` to `max` characters with an ellipsis. Source payloads are clipped rather than rejected:
 * Alertmanager and SNS never retry a 4xx, so a rejection would lose the alert
 * (docs/integrations/alert-webhooks.md#answers).
 */
export function clip(text: string, max: number): string {
  if (text.length <= max) return text;
  let end = max - 1;
  // Do not leave half of a surrogate pair (an emoji, say) before the ellipsis.
  const last = text.charCodeAt(end - 1);
  if (last >= 0xd800 && last <= 0xdbff) end -= 1;
  return `${text.slice(0, end)}…`;
}

/**
 * Shortens an identifier (external_id, fingerprint) to `max` characters: a prefix, `…`, and a hash of
 * the whole. Clipping alone would make two long ids with the same start one alert; the hash keeps
 * them apart and keeps the same id mapping to the same key on every delivery.
 */
export function clipId(id: string, max: number): string {
  if (id.length <= max) return id;
  const hash = createHash('sha256').update(id).digest('hex');
  return `${clip(id, max - hash.length)}${hash}`;
}

/** Label values clipped to `max` characters each (names are already bounded by the schema). */
export function clipLabelValues(labels: Record<string, string>, max: number): Record<string, string> {
  return Object.fromEntries(Object.entries(labels).map(([name, value]) => [name, clip(value, max)]));
}

/** Only the entries with a value worth showing: no `""`, no null, no empty objects. */
export function presentEntries(entries: Record<string, unknown>): Record<string, unknown> {
  return Object.fromEntries(
    Object.entries(entries).filter(([, value]) => {
      if (value === null || value === undefined || value === '') return false;
      return typeof value !== 'object' || Object.keys(value).length > 0;
    }),
  );
}
