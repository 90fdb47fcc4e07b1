import { AppError, alertSeverities, alertStatuses } from '@firebreak/schema';
import { describe, expect, it } from 'vitest';
import { parseAlertmanagerWebhook } from './alertmanager';
import { parseCloudWatchAlarm, parseCloudWatchNotification } from './cloudwatch';
import { parseGenericWebhook } from './generic';
import { parseGrafanaWebhook } from './grafana';
import { alertsOrThrow, type ParseResult } from './parse-result';
import { isAllowedCertUrl, parseSnsEnvelope, snsStringToSign, verifySnsSignature } from './sns';
import { loadFixture } from './test-fixtures';

// Garbage in, a result out: no parser may throw, and what it accepts must be a well-formed AlertInput.
// A seeded generator keeps failures reproducible; iterations are bounded to keep the suite fast.

function mulberry32(seed: number): () => number {
  let state = seed;
  return () => {
    state = (state + 0x6d2b79f5) | 0;
    let t = Math.imul(state ^ (state >>> 15), 1 | state);
    t = (t + Math.imul(t ^ (t >>> 7), 61 | t)) ^ t;
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

const strings = [
  '',
  ' ',
  'x',
  'firing',
  'resolved',
  'critical',
  'ALARM',
  'OK',
  'INSUFFICIENT_DATA',
  'Notification',
  'SubscriptionConfirmation',
  '1',
  '2',
  '0001-01-01T00:00:00Z',
  '2026-05-04T09:12:31.512345678+02:00',
  '2022-09-25T18:50:37.811+0000',
  '9999-99-99T99:99:99Z',
  '__proto__',
  'constructor',
  'alerts',
  'title',
  'labels',
  'severity',
  '{"AlarmName":"a","NewStateValue":"OK"}',
  '{not json',
  'https://sns.us-east-1.amazonaws.com/x.pem',
  '💥'.repeat(600),
  'y'.repeat(5000),
];

function generator(seed: number) {
  const random = mulberry32(seed);
  const pick = <T>(items: readonly T[]): T => items[Math.floor(random() * items.length)] as T;
  const value = (depth: number): unknown => {
    const roll = random();
    if (depth <= 0 || roll < 0.45) {
      return pick<unknown>([null, true, false, 0, -1, 1.5, 1e308, Number.MAX_SAFE_INTEGER, pick(strings)]);
    }
    if (roll < 0.7) return Array.from({ length: Math.floor(random() * 4) }, () => value(depth - 1));
    // Object.fromEntries defines own keys, so `__proto__` arrives as a key, as JSON.parse would deliver it.
    return Object.fromEntries(
      Array.from({ length: Math.floor(random() * 5) }, () => [pick(strings).slice(0, 20), value(depth - 1)]),
    );
  };
  /** A copy of `document` with one value somewhere inside replaced or removed. */
  const mutate = (document: unknown): unknown => {
    if (document === null || typeof document !== 'object' || random() < 0.2) return value(3);
    const copy: Record<string, unknown> = Array.isArray(document)
      ? ([...document] as unknown as Record<string, unknown>)
      : { ...(document as Record<string, unknown>) };
    const keys = Object.keys(copy);
    if (keys.length === 0) return value(2);
    const key = pick(keys);
    if (random() < 0.2 && !Array.isArray(copy)) delete copy[key];
    else copy[key] = random() < 0.6 ? mutate(copy[key]) : value(2);
    return copy;
  };
  return { value, mutate, random };
}

function expectWellFormed(result: ParseResult): void {
  if (!result.ok) {
    expect(result.problems.length).toBeGreaterThan(0);
    for (const problem of result.problems) {
      expect(typeof problem.path).toBe('string');
      expect(problem.message.length).toBeGreaterThan(0);
    }
    expect(() => alertsOrThrow(result)).toThrow(AppError);
    return;
  }
  for (const alert of result.alerts) {
    expect(alert.title.trim().length).toBeGreaterThan(0);
    expect(alert.title.length).toBeLessThanOrEqual(1000);
    expect(alertSeverities).toContain(alert.severity);
    expect(alertStatuses).toContain(alert.status);
    expect(Number.isNaN(alert.startedAt.getTime())).toBe(false);
    if (alert.endedAt) expect(Number.isNaN(alert.endedAt.getTime())).toBe(false);
    expect(alert.status === 'firing' ? alert.endedAt : null).toBeNull();
    expect(JSON.parse(JSON.stringify(alert.labels))).toEqual(alert.labels);
  }
}

const now = new Date('2026-05-04T12:00:00.000Z');
const sources: Array<[string, (payload: unknown) => ParseResult, string[]]> = [
  ['generic', (p) => parseGenericWebhook(p, now), []],
  ['alertmanager', (p) => parseAlertmanagerWebhook(p, now), ['alertmanager-firing', 'alertmanager-mixed']],
  ['grafana', (p) => parseGrafanaWebhook(p, now), ['grafana-firing', 'grafana-resolved']],
];
const genericSample = {
  alerts: [{ title: 'x', severity: 'info', labels: { a: 'b' }, annotations: { c: [1] }, started_at: null }],
};

describe('alert-source parsers on garbage', () => {
  for (const [name, parse, fixtures] of sources) {
    it(`${name}: random JSON values and mutated real payloads give a result, never an exception`, () => {
      const { value, mutate } = generator(name.length * 7919);
      const documents = fixtures.length ? fixtures.map(loadFixture) : [genericSample];
      for (let i = 0; i < 300; i++) expectWellFormed(parse(value(4)));
      for (let i = 0; i < 600; i++) {
        let document: unknown = documents[i % documents.length];
        for (let round = 0; round <= i % 3; round++) document = mutate(document);
        expectWellFormed(parse(document));
      }
    });
  }

  it('cloudwatch: random alarms, as objects or strings, give a result', () => {
    const { value, mutate, random } = generator(4242);
    const alarm = JSON.parse(loadFixture('sns-notification-alarm').Message);
    for (let i = 0; i < 600; i++) {
      const document = i % 2 ? mutate(mutate(alarm)) : value(3);
      const insufficientData = random() < 0.5 ? 'firing' : 'ignore';
      expectWellFormed(parseCloudWatchAlarm(random() < 0.5 ? JSON.stringify(document) : document, now));
      expectWellFormed(parseCloudWatchAlarm(document, now, { insufficientData, topicArn: String(value(0)) }));
    }
  });

  it('sns: mutated envelopes parse or are rejected; verification answers false, never throws', () => {
    const { mutate, value } = generator(1234);
    const envelopes = [
      'sns-notification-alarm',
      'sns-subscription-confirmation',
      'sns-unsubscribe-confirmation',
    ];
    const pattern = /^https:\/\/sns\.[a-z0-9-]+\.amazonaws\.com(\.cn)?\//;
    for (let i = 0; i < 600; i++) {
      const result = parseSnsEnvelope(mutate(loadFixture(envelopes[i % 3] as string)));
      if (!result.ok) {
        expect(result.problems.length).toBeGreaterThan(0);
        continue;
      }
      expect(typeof snsStringToSign(result.envelope)).toBe('string');
      expect(verifySnsSignature(result.envelope, String(value(0)))).toBe(false);
      expect(typeof isAllowedCertUrl(result.envelope.SigningCertURL, pattern)).toBe('boolean');
      if (result.envelope.Type === 'Notification')
        expectWellFormed(parseCloudWatchNotification(result.envelope, now));
    }
  });
});
