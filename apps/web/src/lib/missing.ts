import { ApiError } from './api-client';

/**
 * Whether a read failed because this server has no such endpoint (an older server, or a feature not
 * installed): the page then says what is unavailable instead of showing an error to act on.
 */
export function isMissingEndpoint(error: unknown): boolean {
  return error instanceof ApiError && (error.status === 404 || error.status === 405);
}
