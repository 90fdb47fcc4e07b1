import { describe, expect, it } from 'vitest';
import {
  judgeDeliveryAttempt,
  parseRetryAfter,
  type WebhookAttemptResult,
  webhookRetryDelayMs,
} from './retry-policy';

const event = new Date('2026-11-21T10:00:00.000Z');
const later = (ms: number) => new Date(event.getTime() + ms);
const answered = (
  statusCode: number,
  extra: { retryAfterMs?: number; detail?: string } = {},
): WebhookAttemptResult => ({ kind: 'answered', statusCode, durationMs: 12, ...extra });

describe('retry delays', () => {
  it('start at 10 s, double, and stop growing at an hour', () => {
    expect([1, 2, 3, 4].map((n) => webhookRetryDelayMs(n))).toEqual([10_000, 20_000, 40_000, 80_000]);
    expect(webhookRetryDelayMs(9)).toBe(2_560_000);
    expect(webhookRetryDelayMs(10)).toBe(3_600_000);
    expect(webhookRetryDelayMs(40)).toBe(3_600_000);
  });

  it('wait for a longer Retry-After, never a shorter one', () => {
    expect(webhookRetryDelayMs(1, 120_000)).toBe(120_000);
    expect(webhookRetryDelayMs(3, 1000)).toBe(40_000);
  });
});

describe('an attempt', () => {
  it('delivers on any 2xx', () => {
    expect(judgeDeliveryAttempt(answered(204), 1, event, event)).toEqual({
      status: 'delivered',
      error: null,
      nextAttemptAt: null,
    });
  });

  it.each([500, 502, 503, 429])('retries a %i with backoff', (status) => {
    const verdict = judgeDeliveryAttempt(answered(status, { detail: 'busy' }), 2, later(10_000), event);
    expect(verdict).toEqual({
      status: 'pending',
      error: `HTTP ${status}: busy`,
      nextAttemptAt: later(30_000),
    });
  });

  it('retries a network failure or a timeout', () => {
    const verdict = judgeDeliveryAttempt(
      { kind: 'unreachable', error: 'timed out after 10 s', durationMs: 10_000 },
      1,
      event,
      event,
    );
    expect(verdict).toMatchObject({
      status: 'pending',
      error: 'timed out after 10 s',
      nextAttemptAt: later(10_000),
    });
  });

  it("honours a 429's Retry-After when it is longer than the backoff", () => {
    const verdict = judgeDeliveryAttempt(answered(429, { retryAfterMs: 300_000 }), 1, event, event);
    expect(verdict.nextAttemptAt).toEqual(later(300_000));
    // Only a 429's: a 503 with Retry-After keeps the backoff.
    expect(
      judgeDeliveryAttempt(answered(503, { retryAfterMs: 300_000 }), 1, event, event).nextAttemptAt,
    ).toEqual(later(10_000));
  });

  it.each([400, 401, 404, 410, 422])('fails a %i for good', (status) => {
    expect(judgeDeliveryAttempt(answered(status), 1, event, event)).toEqual({
      status: 'failed',
      error: `HTTP ${status}`,
      nextAttemptAt: null,
    });
  });

  it('fails a redirect for good, without following it', () => {
    expect(judgeDeliveryAttempt(answered(301), 1, event, event)).toMatchObject({
      status: 'failed',
      error: 'HTTP 301 (redirects are not followed)',
    });
  });

  it('gives up when the next try would come 24 hours or more after the event', () => {
    const day = 24 * 3600_000;
    const nearly = judgeDeliveryAttempt(answered(500), 30, later(day - 3_600_001), event);
    expect(nearly.status).toBe('pending');
    const verdict = judgeDeliveryAttempt(answered(500), 31, later(day - 3_600_000), event);
    expect(verdict).toEqual({
      status: 'failed',
      error: 'HTTP 500; gave up: no success within 24 hours',
      nextAttemptAt: null,
    });
  });
});

describe('Retry-After', () => {
  it('reads seconds and HTTP dates; ignores nonsense', () => {
    expect(parseRetryAfter('120', event)).toBe(120_000);
    expect(parseRetryAfter('Sat, 21 Nov 2026 10:05:00 GMT', event)).toBe(300_000);
    expect(parseRetryAfter('soon', event)).toBeUndefined();
    expect(parseRetryAfter(null, event)).toBeUndefined();
  });
});
