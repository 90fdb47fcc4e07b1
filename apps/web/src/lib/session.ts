import { useQuery } from '@tanstack/react-query';
import { ApiError, api, type Me } from './api';

/** How often a failed `me` asks again: the console opened during an outage comes up by itself. */
const ME_RETRY_INTERVAL_MS = 3000;

/**
 * Who is logged in (`GET /api/v1/auth/me`); shared by every page through the query cache. A 401 is an
 * answer (log in); any other failure (the database down, the server restarting) is asked again every
 * few seconds, since a 500 `database_unavailable` is not retried by the query client and the page
 * behind the login gate would otherwise wait for a click on "Try again".
 */
export function useMe() {
  return useQuery({
    queryKey: ['me'],
    queryFn: api.me,
    staleTime: 60_000,
    refetchInterval: (query) => (failedButNotUnauthorized(query.state.error) ? ME_RETRY_INTERVAL_MS : false),
  });
}

function failedButNotUnauthorized(error: unknown): boolean {
  return error != null && !(error instanceof ApiError && error.status === 401);
}

export function canWrite(me: Me | undefined, role: 'member' | 'admin'): boolean {
  if (!me) return false;
  return role === 'member' ? me.role === 'admin' || me.role === 'member' : me.role === 'admin';
}
