import twilio from 'twilio';
import { type ParsedTwiml, parseTwiml } from './twiml';

/** What the app answered a webhook the fake sent, read as Twilio reads it. */
export interface TwilioWebhookAnswer {
  url: string;
  params: Record<string, string>;
  status: number;
  /** The answer's body (TwiML when the app answered 200). */
  body: string;
  /** The TwiML read; undefined when the answer was not 200 or not a `<Response>` document. */
  twiml: ParsedTwiml | undefined;
  /** Why the TwiML could not be read (Twilio would fail the call with this error). */
  twimlError: string | undefined;
}

/**
 * POSTs a form to the app exactly as Twilio sends webhooks: `application/x-www-form-urlencoded`, and
 * `X-Twilio-Signature` = base64 HMAC-SHA1, keyed with the auth token, of the full URL followed by each
 * parameter's name and value in name order. The signature comes from the `twilio` package, so the fake
 * signs as Twilio's own libraries verify.
 */
export async function postSignedWebhook(
  authToken: string,
  url: string,
  params: Record<string, string>,
  options: { signature?: string } = {},
): Promise<TwilioWebhookAnswer> {
  const signature = options.signature ?? twilio.getExpectedTwilioSignature(authToken, url, params);
  const response = await fetch(url, {
    method: 'POST',
    headers: {
      'content-type': 'application/x-www-form-urlencoded',
      'x-twilio-signature': signature,
      'user-agent': 'TwilioProxy/1.1',
      accept: '*/*',
    },
    body: new URLSearchParams(params).toString(),
    redirect: 'manual',
  });
  const body = await response.text();
  let twiml: ParsedTwiml | undefined;
  let twimlError: string | undefined;
  if (response.status === 200) {
    try {
      twiml = parseTwiml(body);
    } catch (error) {
      twimlError = error instanceof Error ? error.message : String(error);
    }
  } else {
    // Twilio says "An application error has occurred" and hangs up (error 11200, HTTP retrieval failure).
    twimlError = `11200 HTTP retrieval failure: the app answered ${response.status}`;
  }
  return { url, params, status: response.status, body, twiml, twimlError };
}
