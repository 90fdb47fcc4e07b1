import { useQuery } from '@tanstack/react-query';
import { api } from '../lib/api';

/**
 * The service's own health, from `GET /ready` (docs/api.md, "Health"), polled while the tab is visible.
 * Degraded (the store is down): the API works, but pages, chat posts and AI work wait until it is back.
 */
export function ReadinessBanner() {
  const ready = useQuery({
    queryKey: ['ready'],
    queryFn: api.readiness,
    refetchInterval: 5000,
    retry: false,
  });
  if (ready.error) {
    return (
      <div role="alert" className="banner banner-danger">
        Cannot reach the Firebreak server. The page will update when it answers again.
      </div>
    );
  }
  if (ready.data?.database === 'error') {
    return (
      <div role="alert" className="banner banner-danger">
        The database is unavailable: nothing can be read or changed until it is back.
      </div>
    );
  }
  if (ready.data?.status === 'degraded') {
    return (
      <div role="status" className="banner banner-warn">
        Background work is delayed: the queue store (Redis) is unreachable. Incidents and alerts are still
        recorded; escalation pages, chat messages and AI drafts will go out when it is back.
      </div>
    );
  }
  return null;
}
