import type { incidents } from '@firebreak/db';
import { AppError } from '@firebreak/schema';

const uuidPattern = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

/** `{id}` in a path is the incident's UUID or its number (docs/api.md#ids); anything else names nothing. */
export function parseIncidentRef(value: string): incidents.IncidentRef {
  if (uuidPattern.test(value)) return { id: value.toLowerCase() };
  if (/^\d{1,9}$/.test(value)) return { number: Number(value) };
  throw new AppError('not_found', `No incident "${value}".`);
}

export function incidentNotFound(ref: incidents.IncidentRef): AppError {
  return new AppError('not_found', `No incident ${'id' in ref ? ref.id : `#${ref.number}`}.`);
}
