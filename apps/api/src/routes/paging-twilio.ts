import { type AppEnv, addRawOperation, type HttpApp, toAppError } from '@firebreak/http';
import {
  acknowledgeFromPageLink,
  acknowledgeFromSms,
  readPageLink,
  reportIfDatabaseUnavailable,
  type ServiceContext,
} from '@firebreak/services';
import type { Context } from 'hono';
import type { ApiDeps } from '../deps';
import { twilioOperations as op } from '../operations/paging-twilio';
import { readTwilioForm } from './paging-twilio-signature';
import { acknowledgedScript, askAgainScript, pageScript, sayAndHangUp, smsReply } from './paging-twiml';

const STALE_LINK = 'This page is no longer valid. Open Firebreak to see the incident. Goodbye.';

/**
 * Twilio's callbacks for personal paging (docs/paging-twilio-push.md#twilio-webhooks). Every answer
 * that Twilio reads is TwiML with status 200, failures included: a 4xx or 5xx makes Twilio play
 * "an application error has occurred", which tells a person woken at night nothing. Only a request that
 * is not Twilio's (a bad signature) is refused, with 403.
 */
export function addTwilioRoutes(app: HttpApp, deps: ApiDeps): void {
  const { ctx, config } = deps;
  const form = (c: Context<AppEnv>) => readTwilioForm(c, ctx, config);
  // Absolute, under PUBLIC_URL: Twilio calls it and signs it as it does the voice URL.
  const publicPathOf = (c: Context<AppEnv>, suffix: string) =>
    `${config.publicUrl!.replace(/\/+$/, '')}${new URL(c.req.url).pathname.replace(/\/+$/, '')}${suffix}`;

  addRawOperation(app, op.voice, async (c) => {
    await form(c);
    return xml(
      c,
      await spoken(c, ctx, async () => {
        const page = await readPageLink(ctx, c.req.param('token') ?? '');
        if (!page) return sayAndHangUp(STALE_LINK);
        return pageScript(page.incident, page.user.name, publicPathOf(c, '/gather'));
      }),
    );
  });

  addRawOperation(app, op.gather, async (c) => {
    const fields = await form(c);
    return xml(
      c,
      await spoken(c, ctx, async () => {
        const token = c.req.param('token') ?? '';
        const page = await readPageLink(ctx, token);
        if (!page) return sayAndHangUp(STALE_LINK);
        if (fields.Digits !== '1')
          return askAgainScript(page.incident, publicPathOf(c, ''), fields.Digits ?? '');
        const result = await acknowledgeFromPageLink(ctx, token, 'voice');
        if (result.outcome === 'invalid') return sayAndHangUp(STALE_LINK);
        if (result.outcome === 'already') {
          const by = result.by ? ` by ${result.by}` : '';
          return sayAndHangUp(`Incident ${page.incident.number} is already ${result.status}${by}. Goodbye.`);
        }
        return acknowledgedScript(page.incident);
      }),
    );
  });

  addRawOperation(app, op.sms, async (c) => {
    const fields = await form(c);
    try {
      const { reply } = await acknowledgeFromSms(ctx, { from: fields.From ?? '', body: fields.Body ?? '' });
      return xml(c, smsReply(reply));
    } catch (error) {
      return xml(c, smsReply(failureSentence(c, ctx, error)));
    }
  });
}

/** The call's TwiML, or a sentence that ends the call when it could not be made. */
async function spoken(
  c: Context<AppEnv>,
  ctx: ServiceContext,
  script: () => Promise<string>,
): Promise<string> {
  try {
    return await script();
  } catch (error) {
    return sayAndHangUp(failureSentence(c, ctx, error));
  }
}

/**
 * A refusal (the incident was resolved meanwhile) is told as the service words it. A database outage
 * is reported as every route reports it (docs/runbooks/README.md); anything else is logged
 * `twilio callback failed` (docs/runbooks/paging-provider-errors.md#twilio-callback-failed). Either
 * way the person is told to use the app: the page goes on.
 */
function failureSentence(c: Context<AppEnv>, ctx: ServiceContext, error: unknown): string {
  const appError = toAppError(error);
  if (appError.status < 500) return `Not acknowledged: ${appError.message}`;
  if (!reportIfDatabaseUnavailable(ctx, error)) {
    c.get('logger').error({ err: error, route: c.req.routePath }, 'twilio callback failed');
  }
  return 'Firebreak could not record the acknowledgement. Acknowledge in the app or the chat channel.';
}

function xml(c: Context<AppEnv>, document: string): Response {
  return c.body(document, 200, { 'content-type': 'text/xml; charset=utf-8' });
}
