import { ApiError } from '../lib/api';

/** An error as the operator should see it: what happened, and the request id to quote to an admin. */
export function ErrorMessage({ error, prefix }: { error: unknown; prefix?: string }) {
  if (!error) return null;
  const message = error instanceof Error ? error.message : String(error);
  const requestId = error instanceof ApiError ? error.requestId : undefined;
  return (
    <div role="alert" className="alert-box alert-error">
      {prefix ? `${prefix}: ` : ''}
      {message}
      {requestId ? <span className="small"> (request {requestId})</span> : null}
    </div>
  );
}
