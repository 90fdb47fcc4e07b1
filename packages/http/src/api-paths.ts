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
 * only credential, and a calendar feed URL its token (`fbc_…`, the feed's only credential), so only
 * their first characters are kept (docs/api.md#logs).
 */
export function loggablePath(path: string): string {
  // Twilio's voice callback URL carries a page link token, which acknowledges without a login.
  const voice = /^\/api\/v1\/paging\/twilio\/voice\/([^/]{0,4})[^/]*/.exec(path);
  if (voice) return `/api/v1/paging/twilio/voice/${voice[1]}…${path.slice(voice[0].length)}`;
  // A page's acknowledge link (/api/v1/page/{token}) acknowledges as the person paged.
  const secret = /^\/api\/v1\/(intake|calendar|page)\/([^/]{0,4})[^/]*/.exec(path);
  return secret ? `/api/v1/${secret[1]}/${secret[2]}…${path.slice(secret[0].length)}` : path;
}

/**
 * The alert APIs of PagerDuty (Events API v2 and v1) and Opsgenie, served at the root under the
 * originals' own paths so their senders need only a new host (docs/integrations/pagerduty-opsgenie-apis.md).
 * They are intake, not API: never rate limited, 1 MiB bodies, no CSRF check. Hono patterns, for
 * `app.use` (`/v2/alerts/*` matches `/v2/alerts` itself too).
 */
export const alertApiPaths = [
  '/v2/enqueue',
  '/generic/2010-04-15/create_event.json',
  '/v2/alerts/*',
] as const;
