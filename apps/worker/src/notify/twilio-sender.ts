import type { PagingConfig } from '@firebreak/config';
import { parseRetryAfter } from '@firebreak/services';
import { describeNetworkFailure } from './network-failure';
import type { SendOutcome } from './outcome';

export type TwilioConfig = NonNullable<PagingConfig['twilio']>;

/** The whole exchange with Twilio, connection included; a page waits on it, so it must end. */
export const TWILIO_TIMEOUT_MS = 10_000;

/**
 * Sends a text message (docs/paging-twilio-push.md#sms): `POST /2010-04-01/Accounts/{sid}/Messages.json`.
 * Never throws for Twilio's answer: a refusal, a rate limit or an outage comes back as a `SendOutcome`.
 */
export function sendSms(cfg: TwilioConfig, to: string, body: string): Promise<SendOutcome> {
  return postForm(cfg, 'Messages.json', { To: to, From: cfg.from, Body: body });
}

/**
 * Starts a phone call (docs/paging-twilio-push.md#voice): Twilio dials `to` and, once answered, POSTs to
 * `twimlUrl` for what to say (apps/api's voice route). `Method=POST` so that Twilio signs the form body.
 */
export function placeCall(cfg: TwilioConfig, to: string, twimlUrl: string): Promise<SendOutcome> {
  return postForm(cfg, 'Calls.json', { To: to, From: cfg.from, Url: twimlUrl, Method: 'POST' });
}

/**
 * Plain fetch, not the `twilio` client: the client builds its URLs from fixed `*.twilio.com` host names
 * (only an edge or region can be chosen), so it cannot reach `TWILIO_API_URL`; and its errors drop the
 * answer's headers, so a 429's `Retry-After` would be lost. These are two form POSTs with basic auth.
 */
async function postForm(
  cfg: TwilioConfig,
  resource: 'Messages.json' | 'Calls.json',
  form: Record<string, string>,
): Promise<SendOutcome> {
  const url = `${cfg.apiUrl.replace(/\/+$/, '')}/2010-04-01/Accounts/${encodeURIComponent(cfg.accountSid)}/${resource}`;
  let response: Response;
  try {
    response = await fetch(url, {
      method: 'POST',
      headers: {
        authorization: `Basic ${Buffer.from(`${cfg.accountSid}:${cfg.authToken}`).toString('base64')}`,
        'content-type': 'application/x-www-form-urlencoded',
        accept: 'application/json',
      },
      body: new URLSearchParams(form).toString(),
      redirect: 'manual',
      signal: AbortSignal.timeout(TWILIO_TIMEOUT_MS),
    });
  } catch (error) {
    // Nothing reached Twilio, or its answer never came back: a later try may succeed.
    return {
      ok: false,
      retryable: true,
      error: `twilio unreachable: ${describeNetworkFailure(error, TWILIO_TIMEOUT_MS)}`,
    };
  }
  const answer = await readJsonAnswer(response);
  if (response.status >= 200 && response.status < 300) {
    return typeof answer.sid === 'string' ? { ok: true, providerId: answer.sid } : { ok: true };
  }
  return refusal(response, answer);
}

interface TwilioAnswer {
  sid?: unknown;
  code?: unknown;
  message?: unknown;
}

/**
 * Twilio's error body is `{code, message, more_info, status}`. A 429 (code 20429) was not processed and
 * is safe to repeat; so is a 5xx. Any other 4xx is a refusal of this request (21211 not a valid number,
 * 21610 the person replied STOP, 20003 wrong credentials): repeating it would be refused again.
 */
function refusal(response: Response, answer: TwilioAnswer): SendOutcome {
  const code = typeof answer.code === 'number' ? answer.code : undefined;
  const message = typeof answer.message === 'string' ? answer.message.slice(0, 200) : response.statusText;
  const error = `twilio ${response.status}${code !== undefined ? ` code ${code}` : ''}: ${message}`;
  const retryable = response.status === 429 || response.status >= 500;
  const retryAfterMs = retryable
    ? parseRetryAfter(response.headers.get('retry-after'), new Date())
    : undefined;
  return { ok: false, retryable, error, ...(retryAfterMs !== undefined ? { retryAfterMs } : {}) };
}

async function readJsonAnswer(response: Response): Promise<TwilioAnswer> {
  try {
    const parsed: unknown = JSON.parse(await response.text());
    return parsed && typeof parsed === 'object' ? (parsed as TwilioAnswer) : {};
  } catch {
    // A proxy's HTML error page, or a body cut short: the status says enough.
    return {};
  }
}
