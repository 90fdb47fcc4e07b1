import { AppError } from '@firebreak/schema';
import type { Context } from 'hono';

const uuidPattern = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

/** A path parameter that must be a UUID; anything else cannot name a record, so 404. */
export function uuidParam(c: Context, name: string): string {
  const value = c.req.param(name) ?? '';
  if (!uuidPattern.test(value)) throw new AppError('not_found', `No record with id "${value}".`);
  return value.toLowerCase();
}
