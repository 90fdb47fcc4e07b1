import { defineOperation, errorAnswers } from '@firebreak/http';
import { z } from 'zod';

/**
 * What Twilio calls back (docs/paging-twilio-push.md#twilio-webhooks): the voice call's script, the key
 * the person pressed, and a text message sent to the Twilio number. Public, like webhooks: each request
 * must carry Twilio's `X-Twilio-Signature`, made with `TWILIO_AUTH_TOKEN` over `PUBLIC_URL` + path and
 * the form; anything else is refused with 403.
 */

const signed = {
  headers: z.object({
    'x-twilio-signature': z.string().meta({
      description:
        'Base64 HMAC-SHA1, keyed with the auth token, of the URL Twilio called and the form fields',
    }),
  }),
};
const signatureNote =
  'Called by Twilio only. Signed with `TWILIO_AUTH_TOKEN` over the URL Twilio called, which must be `PUBLIC_URL` + the path (403 `forbidden` otherwise, and when Twilio or `PUBLIC_URL` is not configured).';
const form = (schema: z.ZodType) => ({
  content: { 'application/x-www-form-urlencoded': { schema } },
  required: true,
});
const twiml = (description: string) => ({
  description,
  content: { 'text/xml': { schema: z.string().meta({ description: 'TwiML: a `<Response>` document' }) } },
});
const TokenParams = z.object({ token: z.string().meta({ description: "The page link's token" }) });
const CallFields = z.looseObject({ CallSid: z.string(), From: z.string(), To: z.string() });

export const twilioOperations = {
  voice: defineOperation({
    method: 'post',
    path: '/api/v1/paging/twilio/voice/{token}',
    access: 'public',
    summary: 'The script of a paging call: the incident read aloud, then "press 1 to acknowledge"',
    description: signatureNote,
    request: { ...signed, params: TokenParams, body: form(CallFields) },
    responses: {
      200: twiml('`<Say>` the incident and a one-digit `<Gather>`; a stale link is told so and hung up'),
      ...errorAnswers(403, 413),
    },
  }),
  gather: defineOperation({
    method: 'post',
    path: '/api/v1/paging/twilio/voice/{token}/gather',
    access: 'public',
    summary: 'The key pressed during a paging call: 1 acknowledges the incident',
    description: signatureNote,
    request: {
      ...signed,
      params: TokenParams,
      body: form(CallFields.extend({ Digits: z.string().meta({ description: 'The keys pressed' }) })),
    },
    responses: {
      200: twiml('What happened, said back; another key asks again'),
      ...errorAnswers(403, 413),
    },
  }),
  sms: defineOperation({
    method: 'post',
    path: '/api/v1/paging/twilio/sms',
    access: 'public',
    summary: 'A text message to the Twilio number: a reply to a page ("ACK 4821") acknowledges it',
    description: signatureNote,
    request: {
      ...signed,
      body: form(
        z.looseObject({ MessageSid: z.string(), From: z.string(), To: z.string(), Body: z.string() }),
      ),
    },
    responses: {
      200: twiml('`<Response><Message>` with the reply Twilio texts back'),
      ...errorAnswers(403, 413),
    },
  }),
};
