import { AppError, formatIssuePath } from '@firebreak/schema';

/**
 * Deeper than any payload a sender produces (Alertmanager, Grafana and chat payloads nest under ten
 * levels), shallow enough that nothing downstream — validation, logging — can run out of stack.
 */
export const MAX_JSON_DEPTH = 64;

/**
 * JSON from a request body: 400 `invalid_json` for bad syntax; 400 `validation_failed` for JSON no
 * request of ours can be — nested deeper than `MAX_JSON_DEPTH`, or text holding a NUL character
 * (`\u0000`, which PostgreSQL cannot store) — refused here, before anything runs or is written.
 */
export function parseJson(raw: string): unknown {
  if (nestedDeeperThan(raw, MAX_JSON_DEPTH)) {
    throw new AppError('validation_failed', 'The request is not valid.', [
      { path: '', message: `Nested deeper than ${MAX_JSON_DEPTH} levels.` },
    ]);
  }
  let value: unknown;
  try {
    value = JSON.parse(raw);
  } catch {
    throw new AppError('invalid_json', 'The request body is not valid JSON.');
  }
  // The escape is the only way a NUL can be in JSON text; the walk runs only when it is there.
  if (raw.includes('\\u0000')) {
    const path = pathOfNul(value, []);
    if (path) {
      throw new AppError('validation_failed', 'The request is not valid.', [
        { path: formatIssuePath(path), message: 'Text may not contain the NUL character (\\u0000).' },
      ]);
    }
  }
  return value;
}

/** Counts brackets outside strings; stops at the first level too deep. */
function nestedDeeperThan(raw: string, max: number): boolean {
  let depth = 0;
  let inString = false;
  for (let i = 0; i < raw.length; i++) {
    const ch = raw.charCodeAt(i);
    if (inString) {
      if (ch === 0x5c)
        i++; // backslash: skip the escaped character
      else if (ch === 0x22) inString = false;
    } else if (ch === 0x22) {
      inString = true;
    } else if (ch === 0x5b || ch === 0x7b) {
      if (++depth > max) return true;
    } else if (ch === 0x5d || ch === 0x7d) {
      depth--;
    }
  }
  return false;
}

/** Where the first NUL is, in a key or a string value (depth is bounded above, so recursion is safe). */
function pathOfNul(value: unknown, path: PropertyKey[]): PropertyKey[] | undefined {
  if (typeof value === 'string') return value.includes('\u0000') ? path : undefined;
  if (Array.isArray(value)) {
    for (let i = 0; i < value.length; i++) {
      const found = pathOfNul(value[i], [...path, i]);
      if (found) return found;
    }
    return undefined;
  }
  if (typeof value === 'object' && value !== null) {
    for (const [key, child] of Object.entries(value)) {
      if (key.includes('\u0000')) return [...path, key];
      const found = pathOfNul(child, [...path, key]);
      if (found) return found;
    }
  }
  return undefined;
}
