import { execFileSync } from 'node:child_process';
import { createPublicKey, sign } from 'node:crypto';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { SnsEnvelope } from '@firebreak/schema';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  isAllowedCertUrl,
  isAllowedSubscribeUrl,
  parseSnsEnvelope,
  snsStringToSign,
  verifySnsSignature,
} from './sns';
import { type Fixture, loadFixture as fixture } from './test-fixtures';

// AWS's signing key is not ours to use: each run makes throw-away self-signed test certificates with openssl
// (node cannot write X.509 certificates) and signs the fixtures with their keys. Nothing is checked in.
interface TestSigner {
  key: string;
  certificate: string;
}
const workDir = mkdtempSync(join(tmpdir(), 'firebreak-sns-test-'));
let signer: TestSigner;
let stranger: TestSigner;

function makeTestSigner(name: string): TestSigner {
  const key = join(workDir, `${name}.key.pem`);
  const certificate = join(workDir, `${name}.cert.pem`);
  execFileSync(
    'openssl',
    [
      'req',
      '-x509',
      '-newkey',
      'rsa:2048',
      '-nodes',
      '-days',
      '1',
      '-keyout',
      key,
      '-out',
      certificate,
    ].concat(['-subj', `/O=Amazon/CN=firebreak-test-only-${name}`]),
    { stdio: 'ignore' },
  );
  return { key: readFileSync(key, 'utf8'), certificate: readFileSync(certificate, 'utf8') };
}

beforeAll(() => {
  signer = makeTestSigner('signer');
  stranger = makeTestSigner('stranger');
});
afterAll(() => rmSync(workDir, { recursive: true, force: true }));

function envelope(name: string, overrides: Record<string, unknown> = {}): SnsEnvelope {
  const result = parseSnsEnvelope({ ...fixture(name), ...overrides });
  if (!result.ok) throw new Error(JSON.stringify(result.problems));
  return result.envelope;
}

function signed(name: string, version: '1' | '2', by: TestSigner = signer): SnsEnvelope {
  const unsigned = envelope(name, { SignatureVersion: version });
  const algorithm = version === '1' ? 'RSA-SHA1' : 'RSA-SHA256';
  const signature = sign(algorithm, Buffer.from(snsStringToSign(unsigned), 'utf8'), by.key).toString(
    'base64',
  );
  return { ...unsigned, Signature: signature };
}

const types = ['sns-notification-alarm', 'sns-subscription-confirmation', 'sns-unsubscribe-confirmation'];

describe('parseSnsEnvelope', () => {
  it('reads all three message types and keeps unknown fields', () => {
    expect(types.map((name) => envelope(name).Type)).toEqual([
      'Notification',
      'SubscriptionConfirmation',
      'UnsubscribeConfirmation',
    ]);
    expect(envelope('sns-notification-alarm', { MessageAttributes: {} })).toHaveProperty('MessageAttributes');
  });

  it('names what is missing or wrong', () => {
    const confirmation: Fixture = { ...fixture('sns-subscription-confirmation'), SignatureVersion: '3' };
    delete confirmation.Token;
    expect(parseSnsEnvelope(confirmation)).toEqual({
      ok: false,
      problems: [
        { path: 'SignatureVersion', message: 'Must be "1" or "2".' },
        { path: 'Token', message: 'Required.' },
      ],
    });
    expect(parseSnsEnvelope({ ...fixture('sns-notification-alarm'), Type: 'Notice' })).toMatchObject({
      ok: false,
      problems: [{ path: 'Type' }],
    });
  });
});

describe('snsStringToSign', () => {
  it('is byte-exact for a CloudWatch alarm Notification', () => {
    const notification = envelope('sns-notification-alarm');
    expect(snsStringToSign(notification)).toBe(
      `Message\n${notification.Message}\nMessageId\n0f2a6a4e-5d1b-5c8e-9a7e-1b2c3d4e5f60\n` +
        'Subject\nALARM: "prod-api-5xx" in US East (N. Virginia)\nTimestamp\n2026-05-04T11:02:17.623Z\n' +
        'TopicArn\narn:aws:sns:us-east-1:123456789012:incident-alarms\nType\nNotification\n',
    );
    expect(snsStringToSign(notification).startsWith('Message\n{"AlarmName":"prod-api-5xx",')).toBe(true);
  });

  it('leaves out an absent Subject', () => {
    const withoutSubject = { ...fixture('sns-notification-alarm') };
    delete withoutSubject.Subject;
    const result = parseSnsEnvelope(withoutSubject);
    expect(result.ok && snsStringToSign(result.envelope)).not.toContain('Subject');
  });

  it('signs SubscribeURL and Token for both confirmation types, with real newlines', () => {
    for (const name of ['sns-subscription-confirmation', 'sns-unsubscribe-confirmation']) {
      const raw = fixture(name);
      const keys = ['Message', 'MessageId', 'SubscribeURL', 'Timestamp', 'Token', 'TopicArn', 'Type'];
      expect(snsStringToSign(envelope(name))).toBe(keys.map((key) => `${key}\n${raw[key]}\n`).join(''));
      expect(raw.Message).toContain('.\nTo ');
    }
  });
});

describe('verifySnsSignature', () => {
  for (const version of ['1', '2'] as const) {
    describe(`SignatureVersion ${version}`, () => {
      it('accepts every message type signed by the certificate key', () => {
        for (const name of types)
          expect(verifySnsSignature(signed(name, version), signer.certificate)).toBe(true);
      });

      it('rejects a changed Message, Subject, Token or TopicArn', () => {
        const notification = signed('sns-notification-alarm', version);
        const forged = notification.Message.replace('"NewStateValue":"ALARM"', '"NewStateValue":"OK"');
        expect(verifySnsSignature({ ...notification, Message: forged }, signer.certificate)).toBe(false);
        expect(verifySnsSignature({ ...notification, Subject: 'OK' }, signer.certificate)).toBe(false);
        expect(verifySnsSignature({ ...notification, TopicArn: 'arn:aws:sns:x' }, signer.certificate)).toBe(
          false,
        );
        const confirmation = signed('sns-subscription-confirmation', version);
        expect(verifySnsSignature({ ...confirmation, Token: 'other' }, signer.certificate)).toBe(false);
      });

      it('rejects a changed Type', () => {
        const confirmation = signed('sns-subscription-confirmation', version);
        const asUnsubscribe = { ...confirmation, Type: 'UnsubscribeConfirmation' } as SnsEnvelope;
        expect(verifySnsSignature(asUnsubscribe, signer.certificate)).toBe(false);
      });

      it('rejects the wrong certificate, a bare public key and a claimed other version', () => {
        const notification = signed('sns-notification-alarm', version);
        expect(verifySnsSignature(notification, stranger.certificate)).toBe(false);
        expect(
          verifySnsSignature(signed('sns-notification-alarm', version, stranger), signer.certificate),
        ).toBe(false);
        const publicKey = createPublicKey(signer.key).export({ type: 'spki', format: 'pem' }).toString();
        expect(verifySnsSignature(notification, publicKey)).toBe(false);
        const other = version === '1' ? '2' : '1';
        expect(verifySnsSignature({ ...notification, SignatureVersion: other }, signer.certificate)).toBe(
          false,
        );
      });
    });
  }

  it('does not cover unsigned fields (UnsubscribeURL, MessageAttributes)', () => {
    const notification = signed('sns-notification-alarm', '2');
    const changed = { ...notification, UnsubscribeURL: 'https://example.com/', MessageAttributes: { a: 1 } };
    expect(verifySnsSignature(changed, signer.certificate)).toBe(true);
  });

  it('answers false, never throws, for garbage signatures and certificates', () => {
    const notification = signed('sns-notification-alarm', '2');
    for (const signature of ['<base64 RSA-SHA256 signature>', 'AAAA', '', 'not base64!', '=====']) {
      expect(verifySnsSignature({ ...notification, Signature: signature }, signer.certificate)).toBe(false);
    }
    for (const pem of ['', 'garbage', '-----BEGIN CERTIFICATE-----\nAAAA\n-----END CERTIFICATE-----\n']) {
      expect(verifySnsSignature(notification, pem)).toBe(false);
    }
  });
});

describe('isAllowedCertUrl', () => {
  // The default of SNS_CERT_URL_PATTERN (README.md#configuration).
  const pattern = /^https:\/\/sns\.[a-z0-9-]+\.amazonaws\.com(\.cn)?\//;
  const real =
    'https://sns.us-east-1.amazonaws.com/SimpleNotificationService-9c6465fa7f48f5cacd23014631ec1136.pem';

  it('accepts the certificate URLs SNS uses', () => {
    expect(isAllowedCertUrl(real, pattern)).toBe(true);
    expect(
      isAllowedCertUrl('https://sns.cn-north-1.amazonaws.com.cn/SimpleNotificationService-1.pem', pattern),
    ).toBe(true);
    expect(isAllowedCertUrl(envelope('sns-notification-alarm').SigningCertURL, pattern)).toBe(true);
  });

  it('rejects other schemes, hosts, credentials and odd spellings', () => {
    for (const url of [
      real.replace('https:', 'http:'),
      'https://sns.us-east-1.amazonaws.com.evil.example/cert.pem',
      'https://evil.example/sns.us-east-1.amazonaws.com/cert.pem',
      'https://user:pw@sns.us-east-1.amazonaws.com/cert.pem',
      'https://sns.us-east-1.amazonaws.com@evil.example/cert.pem',
      'https://sns.us-east-1.amazonaws.com\\@evil.example/cert.pem',
      'https://SNS.us-east-1.amazonaws.com/cert.pem',
      'https://sns.us-east-1.amazonaws.com/a/../cert.pem',
      'https://sns.us-east-1.amazonaws.com/cert.pem?x=1',
      'https://sns.us-east-1.amazonaws.com/cert.pem#x',
      'https://sns.us-east-1.amazonaws.com/cert.txt',
      ' https://sns.us-east-1.amazonaws.com/cert.pem',
      'not a url',
      '',
    ]) {
      expect(isAllowedCertUrl(url, pattern), url).toBe(false);
    }
  });

  it('rejects IP addresses and localhost unless loopback is allowed for a local fake', () => {
    const anything = /^https?:\/\//;
    expect(isAllowedCertUrl('https://52.94.0.1/cert.pem', anything)).toBe(false);
    expect(isAllowedCertUrl('https://[::1]/cert.pem', anything)).toBe(false);
    expect(isAllowedCertUrl('http://127.0.0.1:4567/cert.pem', anything)).toBe(false);
    expect(isAllowedCertUrl('http://127.0.0.1:4567/cert.pem', anything, { allowLoopback: true })).toBe(true);
    expect(isAllowedCertUrl('http://localhost:4567/cert.pem', anything, { allowLoopback: true })).toBe(true);
    expect(isAllowedCertUrl('http://10.0.0.1/cert.pem', anything, { allowLoopback: true })).toBe(false);
    expect(isAllowedCertUrl('http://127.0.0.1:4567/cert.pem', pattern, { allowLoopback: true })).toBe(false);
  });

  it('gives the same answer on every call even with a global pattern', () => {
    const global = new RegExp(pattern.source, 'g');
    expect([1, 2, 3].map(() => isAllowedCertUrl(real, global))).toEqual([true, true, true]);
  });
});

describe('isAllowedSubscribeUrl', () => {
  const pattern = /^https:\/\/sns\.[a-z0-9-]+\.amazonaws\.com(\.cn)?\//;

  it('accepts the SubscribeURL of a confirmation and nothing that merely looks like one', () => {
    const url = (envelope('sns-subscription-confirmation') as { SubscribeURL: string }).SubscribeURL;
    expect(isAllowedSubscribeUrl(url, pattern)).toBe(true);
    expect(isAllowedSubscribeUrl(url.replace('ConfirmSubscription', 'Unsubscribe'), pattern)).toBe(false);
    expect(isAllowedSubscribeUrl(url.replace('sns.us-east-1.amazonaws.com', 'evil.example'), pattern)).toBe(
      false,
    );
    expect(isAllowedSubscribeUrl(url.replace('/?', '/x?'), pattern)).toBe(false);
  });
});
