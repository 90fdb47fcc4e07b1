import type { ReactNode } from 'react';
import { Navigate, useLocation } from 'react-router';
import { ApiError } from '../lib/api';
import { useMe } from '../lib/session';
import { ErrorMessage } from './ErrorMessage';

/** Pages behind the session cookie: 401 sends the operator to the login page and back afterwards. */
export function RequireLogin({ children }: { children: ReactNode }) {
  const me = useMe();
  const location = useLocation();
  if (me.isPending)
    return (
      <p className="subtle" style={{ padding: '2rem' }}>
        Loading…
      </p>
    );
  if (me.error instanceof ApiError && me.error.status === 401) {
    const next = encodeURIComponent(location.pathname + location.search);
    return <Navigate to={`/login?next=${next}`} replace />;
  }
  if (me.error) {
    return (
      <main>
        <h1>Firebreak</h1>
        <ErrorMessage error={me.error} />
        <button type="button" onClick={() => me.refetch()}>
          Try again
        </button>
      </main>
    );
  }
  return <>{children}</>;
}
