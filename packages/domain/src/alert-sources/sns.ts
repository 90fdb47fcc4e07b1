import { verify, X509Certificate } from 'node:crypto';
import { SnsEnvelope, type ValidationIssue } from '@firebreak/schema';
import { problemsOf } from './parse-result';

/**
 * The Amazon SNS HTTP(S) envelope, the pure half of its checks. The ingest app does the I/O: it checks
 * `SigningCertURL` with `isAllowedCertUrl`, fetches and caches the certificate, calls
 * `verifySnsSignature`, checks `TopicArn` against the allowlist in Settings when one is set, and hands a
 * Notification's `Message` to `parseCloudWatchNotification`. Like the alert parsers, nothing here throws
 * on bad input. Envelope, signature and message types: "Envelope", "Signature" and "Types" under
 * docs/integrations/alert-webhooks.md#cloudwatch-via-sns.
 */

export type SnsParseResult = { ok: true; envelope: SnsEnvelope } | { ok: false; problems: ValidationIssue[] };

export function parseSnsEnvelope(payload: unknown): SnsParseResult {
  const parsed = SnsEnvelope.safeParse(payload);
  return parsed.success
    ? { ok: true, envelope: parsed.data }
    : { ok: false, problems: problemsOf(parsed.error) };
}

// The string to sign: these keys, in this order, each only if present. Both confirmation types use the
// subscription list, as the AWS docs say (the official JS validator wrongly uses the notification list for
// UnsubscribeConfirmation). Unsigned fields (UnsubscribeURL, MessageAttributes) can be altered by anyone.
const signedKeys: Record<SnsEnvelope['Type'], readonly string[]> = {
  Notification: ['Message', 'MessageId', 'Subject', 'Timestamp', 'TopicArn', 'Type'],
  SubscriptionConfirmation: [
    'Message',
    'MessageId',
    'SubscribeURL',
    'Timestamp',
    'Token',
    'TopicArn',
    'Type',
  ],
  UnsubscribeConfirmation: ['Message', 'MessageId', 'SubscribeURL', 'Timestamp', 'Token', 'TopicArn', 'Type'],
};

/** The canonical string SNS signs: `key\nvalue\n` per signed key, values as decoded from the JSON. */
export function snsStringToSign(envelope: SnsEnvelope): string {
  const fields: Record<string, unknown> = envelope;
  let out = '';
  for (const key of signedKeys[envelope.Type]) {
    const value = fields[key];
    if (typeof value === 'string') out += `${key}\n${value}\n`;
  }
  return out;
}

// SignatureVersion 1 = SHA1withRSA, 2 = SHA256withRSA, both PKCS#1 v1.5.
const algorithms = { '1': 'RSA-SHA1', '2': 'RSA-SHA256' } as const;
const base64 = /^[A-Za-z0-9+/]+={0,2}$/;

/**
 * Whether `Signature` was made over the canonical string by the key of `certificatePem` (an X.509
 * certificate in PEM; a bare public key is refused, since SNS always points at a certificate). Whether
 * the certificate may be trusted (where it came from) is the caller's check: see `isAllowedCertUrl`.
 */
export function verifySnsSignature(envelope: SnsEnvelope, certificatePem: string): boolean {
  const signature = envelope.Signature;
  if (!base64.test(signature) || signature.length % 4 !== 0) return false;
  try {
    const { publicKey } = new X509Certificate(certificatePem);
    const data = Buffer.from(snsStringToSign(envelope), 'utf8');
    return verify(algorithms[envelope.SignatureVersion], data, publicKey, Buffer.from(signature, 'base64'));
  } catch {
    // Not a certificate, a key type that cannot do RSA PKCS#1: not verified, which is all the caller needs.
    return false;
  }
}

export interface SnsUrlOptions {
  /**
   * Also accept loopback hosts (`localhost`, `127.x.x.x`, `[::1]`), over http or https. The URL must still
   * match the pattern, and the default `SNS_CERT_URL_PATTERN` names only Amazon's hosts, so loopback is
   * reachable only when an operator's pattern names it, as the tests' local fake does
   * (docs/integrations/alert-webhooks.md#cloudwatch-via-sns).
   */
  allowLoopback?: boolean;
}

/**
 * Whether the service may fetch `SigningCertURL` (the first signature check): it must match `pattern`
 * (`SNS_CERT_URL_PATTERN`) and, whatever the pattern says, be https, carry no credentials, query or
 * fragment, name a host (not an IP address) and a `.pem` path. Without this an attacker could make us
 * fetch their own certificate, or any URL (SSRF).
 */
export function isAllowedCertUrl(url: string, pattern: RegExp, options: SnsUrlOptions = {}): boolean {
  const parsed = checkedUrl(url, pattern, options);
  return parsed !== null && parsed.search === '' && parsed.pathname.endsWith('.pem');
}

/**
 * Whether the service may GET a SubscriptionConfirmation's `SubscribeURL`: the same host rules as the
 * certificate, path `/`, `Action=ConfirmSubscription`.
 */
export function isAllowedSubscribeUrl(url: string, pattern: RegExp, options: SnsUrlOptions = {}): boolean {
  const parsed = checkedUrl(url, pattern, options);
  return (
    parsed !== null && parsed.pathname === '/' && parsed.searchParams.get('Action') === 'ConfirmSubscription'
  );
}

function checkedUrl(raw: string, pattern: RegExp, { allowLoopback = false }: SnsUrlOptions): URL | null {
  let url: URL;
  try {
    url = new URL(raw);
  } catch {
    return null;
  }
  // Only a URL already in canonical form: the URL parser forgives backslashes, tabs, `..`, upper case and
  // numeric hosts, and the fetcher goes where the parsed form points, not where the pattern looked.
  if (url.href !== raw || url.username !== '' || url.password !== '' || url.hash !== '') return null;
  const loopback = allowLoopback && isLoopback(url.hostname);
  if (url.protocol !== 'https:' && !(loopback && url.protocol === 'http:')) return null;
  if (!loopback && (url.hostname === 'localhost' || isIpAddress(url.hostname))) return null;
  // A fresh RegExp: a `g` or `y` flag would make `test` depend on the previous call's lastIndex.
  return new RegExp(pattern.source, pattern.flags.replace(/[gy]/g, '')).test(url.href) ? url : null;
}

function isIpAddress(hostname: string): boolean {
  return hostname.startsWith('[') || /^\d+\.\d+\.\d+\.\d+$/.test(hostname);
}

function isLoopback(hostname: string): boolean {
  return hostname === 'localhost' || hostname === '[::1]' || /^127\.\d+\.\d+\.\d+$/.test(hostname);
}
