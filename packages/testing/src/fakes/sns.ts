import { randomUUID, sign as rsaSign } from 'node:crypto';
import { makeSelfSignedCertificate } from '../certificate';
import { listen, type RunningServer } from './http-server';

/**
 * A fake Amazon SNS for the cloud-monitor webhook (docs/integrations/alert-webhooks.md#cloudwatch-via-sns):
 * it holds a throw-away RSA key and a self-signed certificate made with openssl at start (AWS's key is not
 * ours to use), serves the certificate at a `.pem` path like `sns.<region>.amazonaws.com` does, answers the
 * `SubscribeURL` (`GET /?Action=ConfirmSubscription&TopicArn=…&Token=…`) with a
 * `ConfirmSubscriptionResponse`, and signs envelopes the way SNS does. The canonical string is built here
 * from the documented rules ("Signature"), not taken from the domain package, so a test signing with this
 * fake cross-checks the service's verifier.
 */

export type SnsSignatureVersion = '1' | '2';

/** An SNS envelope before or after signing: string fields (`Type`, `Message`, …) and whatever else. */
export type SnsEnvelopeFields = Record<string, unknown>;

export type SignedSnsEnvelope<T extends SnsEnvelopeFields> = Omit<
  T,
  'SigningCertURL' | 'SignatureVersion' | 'Signature'
> & {
  SigningCertURL: string;
  SignatureVersion: SnsSignatureVersion;
  Signature: string;
};

export interface FakeSnsConfirmation {
  topicArn: string;
  token: string;
  /** What the fake answered in `<SubscriptionArn>`. */
  subscriptionArn: string;
  time: Date;
}

export interface FakeSnsCertificateRequest {
  path: string;
  time: Date;
}

export interface FakeSnsOptions {
  /** Where the certificate is served. Default `/SimpleNotificationService-test.pem`. */
  certificatePath?: string;
}

// Signature step 3 (the string to sign): per message type, these keys in this order, each only if
// present in the message.
// SigningCertURL, SignatureVersion, Signature, UnsubscribeURL and MessageAttributes are not signed.
const CONFIRMATION_KEYS = ['Message', 'MessageId', 'SubscribeURL', 'Timestamp', 'Token', 'TopicArn', 'Type'];
const SIGNED_KEYS: Record<string, readonly string[]> = {
  Notification: ['Message', 'MessageId', 'Subject', 'Timestamp', 'TopicArn', 'Type'],
  SubscriptionConfirmation: CONFIRMATION_KEYS,
  UnsubscribeConfirmation: CONFIRMATION_KEYS,
};

// Signature step 4: version 1 = SHA1withRSA, 2 = SHA256withRSA (PKCS#1 v1.5).
const ALGORITHMS: Record<SnsSignatureVersion, string> = { '1': 'RSA-SHA1', '2': 'RSA-SHA256' };

const SNS_XMLNS = 'http://sns.amazonaws.com/doc/2010-03-31/';

export class FakeSns {
  /** Every successful `ConfirmSubscription` visit, oldest first. */
  readonly confirmations: FakeSnsConfirmation[] = [];
  /** Every download of the certificate, oldest first: a caching client fetches it once. */
  readonly certificateRequests: FakeSnsCertificateRequest[] = [];
  private readonly tokens = new Map<string, string>();
  private readonly subscriptionArns = new Map<string, string>();
  private server!: RunningServer;

  constructor(
    /** The self-signed certificate (PEM) whose key signs; subject `O=Amazon`, CN marked test-only. */
    readonly certificatePem: string,
    private readonly privateKeyPem: string,
    readonly certificatePath: string,
  ) {}

  /** `http://127.0.0.1:<port>`, no trailing slash. */
  get origin(): string {
    return this.server.origin;
  }

  /** The `SigningCertURL` that `sign` puts in every message. */
  get certificateUrl(): string {
    return `${this.origin}${this.certificatePath}`;
  }

  async start(): Promise<this> {
    this.server = await listen((req) => this.handle(req));
    return this;
  }

  close(): Promise<void> {
    return this.server.close();
  }

  /**
   * The `SubscribeURL` SNS puts in a SubscriptionConfirmation (and an UnsubscribeConfirmation), in AWS's
   * shape (`/?Action=ConfirmSubscription&TopicArn=…&Token=…`, ARN colons unescaped) but on this fake.
   * Only tokens handed out here are accepted when visited.
   */
  subscribeUrl(topicArn: string, token: string): string {
    this.tokens.set(token, topicArn);
    return `${this.origin}/?Action=ConfirmSubscription&TopicArn=${topicArn}&Token=${token}`;
  }

  /** The string SNS signs for this message ("Signature", step 3). */
  stringToSign(envelope: SnsEnvelopeFields): string {
    const type = envelope.Type;
    const keys = typeof type === 'string' ? SIGNED_KEYS[type] : undefined;
    if (!keys) throw new Error(`FakeSns: cannot sign a message of Type ${JSON.stringify(type)}`);
    let out = '';
    for (const key of keys) {
      if (!Object.hasOwn(envelope, key) || envelope[key] === undefined) continue;
      const value = envelope[key];
      if (typeof value !== 'string') throw new Error(`FakeSns: ${key} must be a string, as SNS sends it`);
      out += `${key}\n${value}\n`;
    }
    return out;
  }

  /**
   * A copy of `envelope` as SNS would deliver it: `SigningCertURL` (this fake's certificate),
   * `SignatureVersion`, `Timestamp` (`sentAt`, default now) and a base64 `Signature` over the canonical
   * string, made with this fake's key.
   * Change a signed field afterwards and the signature no longer verifies; unsigned fields may change.
   */
  sign<T extends SnsEnvelopeFields>(
    envelope: T,
    version: SnsSignatureVersion = '2',
    sentAt: Date = new Date(),
  ): SignedSnsEnvelope<T> {
    const { Signature: _old, ...rest } = envelope;
    // Like SNS, the fake stamps the time of sending: receivers refuse old messages as replays, and the
    // fixtures' own Timestamps are long past.
    const unsigned = {
      ...rest,
      Timestamp: sentAt.toISOString(),
      SigningCertURL: this.certificateUrl,
      SignatureVersion: version,
    };
    const data = Buffer.from(this.stringToSign(unsigned), 'utf8');
    const signature = rsaSign(ALGORITHMS[version], data, this.privateKeyPem).toString('base64');
    return { ...unsigned, Signature: signature } as unknown as SignedSnsEnvelope<T>;
  }

  private handle(req: Request): Response {
    const url = new URL(req.url);
    if (req.method === 'GET' && url.pathname === this.certificatePath) {
      this.certificateRequests.push({ path: url.pathname, time: new Date() });
      return new Response(this.certificatePem, { headers: { 'content-type': 'application/x-pem-file' } });
    }
    if (url.pathname !== '/') return new Response('Not Found', { status: 404 });
    const action = url.searchParams.get('Action');
    if (action !== 'ConfirmSubscription') {
      return errorXml(400, 'InvalidAction', `The action ${action ?? ''} is not valid for this web service.`);
    }
    return this.confirm(url.searchParams.get('TopicArn'), url.searchParams.get('Token'));
  }

  private confirm(topicArn: string | null, token: string | null): Response {
    if (!topicArn) return errorXml(400, 'InvalidParameter', 'Invalid parameter: TopicArn');
    if (!token || this.tokens.get(token) !== topicArn) {
      return errorXml(400, 'InvalidParameter', 'Invalid parameter: Token');
    }
    // Confirming again is allowed and names the same subscription.
    let subscriptionArn = this.subscriptionArns.get(token);
    if (!subscriptionArn) {
      subscriptionArn = `${topicArn}:${randomUUID()}`;
      this.subscriptionArns.set(token, subscriptionArn);
    }
    this.confirmations.push({ topicArn, token, subscriptionArn, time: new Date() });
    const body =
      `<ConfirmSubscriptionResponse xmlns="${SNS_XMLNS}">\n` +
      '  <ConfirmSubscriptionResult>\n' +
      `    <SubscriptionArn>${escapeXml(subscriptionArn)}</SubscriptionArn>\n` +
      '  </ConfirmSubscriptionResult>\n' +
      '  <ResponseMetadata>\n' +
      `    <RequestId>${randomUUID()}</RequestId>\n` +
      '  </ResponseMetadata>\n' +
      '</ConfirmSubscriptionResponse>\n';
    return new Response(body, { headers: { 'content-type': 'text/xml' } });
  }
}

function errorXml(status: number, code: string, message: string): Response {
  const body =
    `<ErrorResponse xmlns="${SNS_XMLNS}">\n` +
    `  <Error>\n    <Type>Sender</Type>\n    <Code>${code}</Code>\n` +
    `    <Message>${escapeXml(message)}</Message>\n  </Error>\n` +
    `  <RequestId>${randomUUID()}</RequestId>\n` +
    '</ErrorResponse>\n';
  return new Response(body, { status, headers: { 'content-type': 'text/xml' } });
}

function escapeXml(text: string): string {
  return text.replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/>/g, '&gt;').replace(/"/g, '&quot;');
}

export async function startFakeSns(options: FakeSnsOptions = {}): Promise<FakeSns> {
  const certificatePath = options.certificatePath ?? '/SimpleNotificationService-test.pem';
  if (!certificatePath.startsWith('/') || !certificatePath.endsWith('.pem')) {
    throw new Error('startFakeSns: certificatePath must start with / and end with .pem');
  }
  const { certificate, key } = await makeSelfSignedCertificate(
    '/O=Amazon/CN=firebreak-test-only.fake-sns.invalid',
  );
  return new FakeSns(certificate, key, certificatePath).start();
}
