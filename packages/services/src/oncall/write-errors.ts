import { AppError } from '@firebreak/schema';

/**
 * Turns the database's refusals that a client can cause into the API's 409 `conflict`: a unique
 * name or e-mail taken (SQLSTATE 23505), or a row still referenced (23503). Checking first and then
 * writing would still race; the constraint is the one place that cannot.
 */
export async function refusingConflicts<T>(write: Promise<T>, messages: Record<string, string>): Promise<T> {
  try {
    return await write;
  } catch (error) {
    const { code, constraint_name } = (error ?? {}) as { code?: unknown; constraint_name?: unknown };
    if ((code === '23505' || code === '23503') && typeof constraint_name === 'string') {
      const message = messages[constraint_name];
      if (message) throw new AppError('conflict', message);
    }
    throw error;
  }
}

export function notFound(kind: 'user' | 'schedule' | 'escalation policy', id: string): AppError {
  return new AppError('not_found', `No ${kind} ${id}.`);
}
