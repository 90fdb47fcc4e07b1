/**
 * The API proper: `/api/v1/*` except webhooks, keyed intake and chat (docs/api.md#processes). In the embedded server every
 * app shares one router, so middleware meant for the API checks this instead of trusting its mount path.
 */
export function isApiPath(path: string): boolean {
  return (
    path.startsWith('/api/v1/') &&
    !path.startsWith('/api/v1/webhooks/') &&
    !path.startsWith('/api/v1/intake/') &&
    !path.startsWith('/api/v1/chat/')
  );
}

/**
 * A request path as it may be logged: a keyed intake URL carries the integration's key, its sender's
 * only credential, so only the key's first characters are kept (docs/api.md#logs).
 */
export function loggablePath(path: string): string {
  const intake = /^\/api\/v1\/intake\/([^/]{0,4})[^/]*/.exec(path);
  return intake ? `/api/v1/intake/${intake[1]}…${path.slice(intake[0].length)}` : path;
}
