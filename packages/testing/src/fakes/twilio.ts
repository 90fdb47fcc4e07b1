import { randomBytes } from 'node:crypto';
import { Hono } from 'hono';
import { FaultQueue } from './faults';
import { listen, type RunningServer } from './http-server';
import { postSignedWebhook, type TwilioWebhookAnswer } from './twilio/webhook';

/**
 * A fake Twilio REST API (docs/paging-twilio-push.md) on a real port: point `TWILIO_API_URL` at
 * `origin`. It serves `Messages.json` and `Calls.json` under `/2010-04-01/Accounts/{sid}/`, refuses
 * what Twilio refuses (wrong credentials 20003, a number not in E.164 21211, an opted-out recipient
 * 21610, too many requests 20429), and plays the telephone: a call fetches its `Url` with a signed
 * webhook, records what `<Say>` said, and `pressDigits` answers its `<Gather>`.
 */

export interface FakeTwilioOptions {
  accountSid: string;
  authToken: string;
  /** The account's numbers. When given, `From` must be one of them; the first receives inbound SMS. */
  numbers?: string[];
  /** Answer 429 (code 20429) beyond `requests` in any `windowMs`. */
  rateLimit?: { requests: number; windowMs: number; retryAfterSeconds?: number };
}

export interface FakeTwilioMessage {
  sid: string;
  to: string;
  from: string;
  body: string;
  time: Date;
}

export interface FakeTwilioCall {
  sid: string;
  to: string;
  from: string;
  url: string;
  time: Date;
  /** The answered call's first TwiML fetch, once it happened (see `answered`). */
  answer: TwilioWebhookAnswer | undefined;
  /** Everything `<Say>` said on the call so far, replies to key presses included. */
  said: string[];
  /** The replies to `pressDigits`, oldest first. */
  presses: TwilioWebhookAnswer[];
}

export interface FakeTwilioRequest {
  resource: string;
  status: number;
  /** The `code` of Twilio's error body, when it refused. */
  code: number | undefined;
  params: Record<string, string>;
}

const E164 = /^\+[1-9]\d{1,14}$/;
const MAX_BODY_CHARS = 1600;
const DEFAULT_NUMBER = '+15005550006';

const sid = (prefix: string) => `${prefix}${randomBytes(16).toString('hex')}`;

export class FakeTwilio {
  readonly messages: FakeTwilioMessage[] = [];
  readonly calls: FakeTwilioCall[] = [];
  readonly requests: FakeTwilioRequest[] = [];
  /** Recipients who replied STOP: Twilio refuses to text them (21610). */
  readonly optedOut = new Set<string>();
  private readonly answers = new Map<string, Promise<TwilioWebhookAnswer>>();
  private readonly faults = new FaultQueue<number>();
  private readonly recent: number[] = [];
  private server!: RunningServer;

  constructor(private readonly options: FakeTwilioOptions) {}

  get origin(): string {
    return this.server.origin;
  }

  get number(): string {
    return this.options.numbers?.[0] ?? DEFAULT_NUMBER;
  }

  async start(): Promise<this> {
    const app = new Hono();
    app.post('/2010-04-01/Accounts/:account/:resource', async (c) => {
      const params = Object.fromEntries(new URLSearchParams(await c.req.text()));
      const resource = c.req.param('resource');
      const { status, body, headers } = this.handle(
        c.req.param('account'),
        resource,
        c.req.header('authorization'),
        params,
      );
      const code = typeof body.code === 'number' ? body.code : undefined;
      this.requests.push({ resource, status, code, params });
      return c.json(body, status as 201, headers);
    });
    this.server = await listen(app.fetch);
    return this;
  }

  close(): Promise<void> {
    return this.server.close();
  }

  /** The next `times` requests answer `status` (a 500 or 503 outage) with Twilio's error body. */
  failNext(status: number, times = 1): void {
    this.faults.add('*', status, times);
  }

  /** Resolves once the call's `Url` was fetched (the person "picked up"), with what the app answered. */
  async answered(callSid: string): Promise<FakeTwilioCall> {
    const pending = this.answers.get(callSid);
    if (!pending) throw new Error(`no call ${callSid}`);
    await pending;
    return this.calls.find((call) => call.sid === callSid)!;
  }

  /**
   * The person presses `digits` while the call's `<Gather>` waits: its `action` gets a signed POST with
   * `Digits`, as Twilio sends it, and the reply's `<Say>` joins what the call said.
   */
  async pressDigits(callSid: string, digits: string): Promise<TwilioWebhookAnswer> {
    const call = await this.answered(callSid);
    const last = call.presses.at(-1) ?? call.answer;
    const gather = last?.twiml?.gather;
    if (!last || !gather) throw new Error(`call ${callSid} is not waiting for a key press`);
    // Twilio resolves a relative action against the URL of the document that holds the <Gather>.
    const action = new URL(gather.action ?? last.url, last.url).toString();
    const reply = await postSignedWebhook(this.options.authToken, action, {
      ...this.callParams(call),
      Digits: digits,
      FinishedOnKey: '',
    });
    call.presses.push(reply);
    call.said.push(...(reply.twiml?.said ?? []));
    return reply;
  }

  /** A text message from `from` to the account's number, posted signed to the app's inbound webhook. */
  sendInboundSms(input: {
    from: string;
    body: string;
    url: string;
    signature?: string;
  }): Promise<TwilioWebhookAnswer> {
    const params = {
      MessageSid: sid('SM'),
      SmsSid: '',
      AccountSid: this.options.accountSid,
      From: input.from,
      To: this.number,
      Body: input.body,
      NumMedia: '0',
      NumSegments: '1',
      SmsStatus: 'received',
      ApiVersion: '2010-04-01',
    };
    params.SmsSid = params.MessageSid;
    return postSignedWebhook(
      this.options.authToken,
      input.url,
      params,
      input.signature ? { signature: input.signature } : {},
    );
  }

  // ---- the REST API ------------------------------------------------------------------------------

  private handle(
    account: string,
    resource: string,
    authorization: string | undefined,
    params: Record<string, string>,
  ): RestAnswer {
    if (!this.authorized(account, authorization)) return refusal(401, 20003, 'Authenticate');
    const fault = this.faults.take('*');
    if (fault !== undefined) return refusal(fault, 20500, 'An internal server error has occurred');
    if (this.limited()) {
      // Twilio documents no Retry-After for 20429; a test that wants one configures it.
      const retryAfter = this.options.rateLimit?.retryAfterSeconds;
      const answer = refusal(429, 20429, 'Too Many Requests');
      return retryAfter ? { ...answer, headers: { 'retry-after': String(retryAfter) } } : answer;
    }
    if (resource === 'Messages.json') return this.createMessage(params);
    if (resource === 'Calls.json') return this.createCall(params);
    return refusal(404, 20404, 'The requested resource was not found');
  }

  private authorized(account: string, authorization: string | undefined): boolean {
    const match = /^Basic (.+)$/i.exec(authorization ?? '');
    if (!match) return false;
    const [user, ...rest] = Buffer.from(match[1]!, 'base64').toString().split(':');
    return user === this.options.accountSid && rest.join(':') === this.options.authToken && account === user;
  }

  private limited(): boolean {
    const limit = this.options.rateLimit;
    if (!limit) return false;
    const now = Date.now();
    while (this.recent.length && this.recent[0]! <= now - limit.windowMs) this.recent.shift();
    if (this.recent.length >= limit.requests) return true;
    this.recent.push(now);
    return false;
  }

  private checkNumbers(params: Record<string, string>, fromCode: number) {
    if (!params.To) return refusal(400, 21604, "A 'To' phone number is required.");
    if (!E164.test(params.To))
      return refusal(400, 21211, `The 'To' number ${params.To} is not a valid phone number.`);
    if (!params.From) return refusal(400, 21603, "A 'From' phone number is required.");
    if (this.options.numbers && !this.options.numbers.includes(params.From)) {
      return refusal(
        400,
        fromCode,
        `The 'From' number ${params.From} is not a Twilio phone number of this account.`,
      );
    }
    return undefined;
  }

  private createMessage(params: Record<string, string>): RestAnswer {
    const refused = this.checkNumbers(params, 21606);
    if (refused) return refused;
    if (!params.Body) return refusal(400, 21602, 'Message body is required.');
    if (params.Body.length > MAX_BODY_CHARS) {
      return refusal(400, 21617, 'The concatenated message body exceeds the 1600 character limit.');
    }
    if (this.optedOut.has(params.To!))
      return refusal(400, 21610, 'Attempt to send to unsubscribed recipient');
    const message = {
      sid: sid('SM'),
      to: params.To!,
      from: params.From!,
      body: params.Body,
      time: new Date(),
    };
    this.messages.push(message);
    return {
      status: 201,
      body: {
        sid: message.sid,
        account_sid: this.options.accountSid,
        to: message.to,
        from: message.from,
        body: message.body,
        status: 'queued',
      },
    };
  }

  private createCall(params: Record<string, string>): RestAnswer {
    const refused = this.checkNumbers(params, 21210);
    if (refused) return refused;
    if (!params.Url || !/^https?:\/\//.test(params.Url))
      return refusal(400, 21205, 'Url is not a valid URL.');
    const call: FakeTwilioCall = {
      sid: sid('CA'),
      to: params.To!,
      from: params.From!,
      url: params.Url,
      time: new Date(),
      answer: undefined,
      said: [],
      presses: [],
    };
    this.calls.push(call);
    // The call is queued at once; the person picks up a moment later and Twilio fetches the TwiML.
    const method = (params.Method ?? 'POST').toUpperCase();
    const pickUp = (async () => {
      await new Promise((resolve) => setImmediate(resolve));
      if (method !== 'POST') throw new Error('the fake answers calls whose Method is POST only');
      const answer = await postSignedWebhook(this.options.authToken, call.url, this.callParams(call));
      call.answer = answer;
      call.said.push(...(answer.twiml?.said ?? []));
      return answer;
    })();
    pickUp.catch(() => undefined);
    this.answers.set(call.sid, pickUp);
    return {
      status: 201,
      body: {
        sid: call.sid,
        account_sid: this.options.accountSid,
        to: call.to,
        from: call.from,
        status: 'queued',
      },
    };
  }

  private callParams(call: FakeTwilioCall): Record<string, string> {
    return {
      CallSid: call.sid,
      AccountSid: this.options.accountSid,
      From: call.from,
      To: call.to,
      CallStatus: 'in-progress',
      Direction: 'outbound-api',
      ApiVersion: '2010-04-01',
    };
  }
}

interface RestAnswer {
  status: number;
  body: Record<string, unknown>;
  headers?: Record<string, string>;
}

/** Twilio's error body. */
function refusal(status: number, code: number, message: string): RestAnswer {
  return { status, body: { code, message, more_info: `https://www.twilio.com/docs/errors/${code}`, status } };
}

export async function startFakeTwilio(options: FakeTwilioOptions): Promise<FakeTwilio> {
  return new FakeTwilio(options).start();
}
