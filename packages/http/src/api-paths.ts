/**
 * The API proper: `/api/v1/*` except webhooks and chat (docs/api.md#processes). In the embedded server every
 * app shares one router, so middleware meant for the API checks this instead of trusting its mount path.
 */
export function isApiPath(path: string): boolean {
  return (
    path.startsWith('/api/v1/') && !path.startsWith('/api/v1/webhooks/') && !path.startsWith('/api/v1/chat/')
  );
}
