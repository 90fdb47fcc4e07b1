import type { Config } from '@firebreak/config';
import { type AppEnv, readBodyText } from '@firebreak/http';
import { AppError } from '@firebreak/schema';
import { reportInvalidSignature, type ServiceContext } from '@firebreak/services';
import type { Context } from 'hono';
// The webhooks module only: the package's root loads Twilio's whole REST client, megabytes of bundle.
import { validateRequest } from 'twilio/lib/webhooks/webhooks.js';

/**
 * The form of a request Twilio signed, once `X-Twilio-Signature` checks out; else 403 and the
 * `invalid_signature` log line (docs/runbooks/invalid-signature.md).
 *
 * Twilio signs the URL it called. Behind a proxy our own request URL is not that one (another host,
 * http instead of https, a path prefix removed), so the URL checked is `PUBLIC_URL` + this request's
 * path and query: PUBLIC_URL must be exactly what Twilio calls (docs/paging-twilio-push.md#public-url).
 * The check is the `twilio` package's own, so it matches Twilio's rules (parameters sorted by name,
 * the URL with and without its default port).
 */
export async function readTwilioForm(
  c: Context<AppEnv>,
  ctx: Pick<ServiceContext, 'failures'>,
  config: Pick<Config, 'paging' | 'publicUrl'>,
): Promise<Record<string, string>> {
  const rawBody = await readBodyText(c);
  const authToken = config.paging.twilio?.authToken;
  if (!authToken || !config.publicUrl) {
    throw new AppError(
      'forbidden',
      'Twilio callbacks need TWILIO_AUTH_TOKEN and PUBLIC_URL; without them nothing is accepted.',
    );
  }
  const params = Object.fromEntries(new URLSearchParams(rawBody));
  const signature = c.req.header('x-twilio-signature') ?? '';
  if (signature && validateRequest(authToken, signature, twilioUrl(config.publicUrl, c), params)) {
    return params;
  }
  reportInvalidSignature(ctx, 'twilio', {
    request_id: c.get('requestId'),
    path: c.req.routePath,
    why: signature ? 'mismatch' : 'missing',
  });
  throw new AppError(
    'forbidden',
    'X-Twilio-Signature is missing or does not match: check TWILIO_AUTH_TOKEN, and that PUBLIC_URL is the address Twilio calls.',
  );
}

/** The URL Twilio called, as PUBLIC_URL names it (any path prefix of PUBLIC_URL kept). */
export function twilioUrl(publicUrl: string, c: Context<AppEnv>): string {
  const own = new URL(c.req.url);
  return `${publicUrl.replace(/\/+$/, '')}${own.pathname}${own.search}`;
}
