import { describe, expect, it } from 'vitest';
import { METHOD_TIERS, TIER_ALLOWANCE, TierLimiter } from './tiers';

function limiter(windowMs = 60_000) {
  const clock = { now: 1_000_000 };
  return { clock, tiers: new TierLimiter({ windowMs, now: () => clock.now }) };
}

const callMany = (tiers: TierLimiter, method: string, times: number, args = {}) =>
  Array.from({ length: times }, () => tiers.admit(method, args));

describe('per-method tiers', () => {
  it('holds each tier to its published floor', () => {
    expect(TIER_ALLOWANCE).toEqual({ 1: 1, 2: 20, 3: 50, 4: 100 });
    expect(METHOD_TIERS['conversations.create']).toBe(2);
    expect(METHOD_TIERS['conversations.join']).toBe(3);
    expect(METHOD_TIERS['users.info']).toBe(4);
  });

  it('accepts a tier 2 method 20 times a minute, then answers the seconds until the window closes', () => {
    const { clock, tiers } = limiter();
    expect(callMany(tiers, 'conversations.create', 20)).toEqual(Array(20).fill(0));
    clock.now += 15_500;
    expect(tiers.admit('conversations.create', {})).toBe(45); // 44.5 s left, rounded up
    clock.now += 44_000;
    expect(tiers.admit('conversations.create', {})).toBe(1); // 0.5 s left: never 0
    clock.now += 500;
    expect(tiers.admit('conversations.create', {})).toBe(0); // a new minute
  });

  it('counts each method on its own', () => {
    const { tiers } = limiter();
    callMany(tiers, 'conversations.create', 20);
    expect(tiers.admit('conversations.create', {})).toBeGreaterThan(0);
    expect(tiers.admit('conversations.setTopic', {})).toBe(0);
    expect(callMany(tiers, 'users.info', 100)).toEqual(Array(100).fill(0));
    expect(tiers.admit('users.info', {})).toBe(60);
  });

  it('does not count refused calls against the allowance', () => {
    const { clock, tiers } = limiter();
    callMany(tiers, 'conversations.create', 20);
    callMany(tiers, 'conversations.create', 30);
    clock.now += 60_000;
    expect(callMany(tiers, 'conversations.create', 20)).toEqual(Array(20).fill(0));
  });

  it('scales the minute, and Retry-After stays whole seconds', () => {
    const { clock, tiers } = limiter(1500);
    callMany(tiers, 'conversations.create', 20);
    expect(tiers.admit('conversations.create', {})).toBe(2);
    clock.now += 1000;
    expect(tiers.admit('conversations.create', {})).toBe(1);
    clock.now += 500;
    expect(tiers.admit('conversations.create', {})).toBe(0);
  });

  it('leaves methods with unpublished limits alone', () => {
    const { tiers } = limiter();
    expect(callMany(tiers, 'auth.test', 500).every((wait) => wait === 0)).toBe(true);
  });
});

describe('chat.postMessage, one a second per channel', () => {
  it('takes a burst of 5 in a quiet channel, then one a second', () => {
    const { clock, tiers } = limiter();
    const post = (channel: string) => tiers.admit('chat.postMessage', { channel });
    expect(callMany(tiers, 'chat.postMessage', 5, { channel: 'C1' })).toEqual([0, 0, 0, 0, 0]);
    expect(post('C1')).toBe(1);
    clock.now += 999;
    expect(post('C1')).toBe(1);
    clock.now += 1;
    expect(post('C1')).toBe(0);
    expect(post('C1')).toBe(1);
  });

  it('paces each channel on its own', () => {
    const { tiers } = limiter();
    callMany(tiers, 'chat.postMessage', 5, { channel: 'C1' });
    expect(tiers.admit('chat.postMessage', { channel: 'C1' })).toBe(1);
    expect(tiers.admit('chat.postMessage', { channel: 'C2' })).toBe(0);
    expect(tiers.admit('chat.postMessage', { channel: 'D0ALICE' })).toBe(0);
  });

  it('scales the second with the minute', () => {
    const { clock, tiers } = limiter(6000); // a "second" is 100 ms
    callMany(tiers, 'chat.postMessage', 5, { channel: 'C1' });
    expect(tiers.admit('chat.postMessage', { channel: 'C1' })).toBe(1);
    clock.now += 100;
    expect(tiers.admit('chat.postMessage', { channel: 'C1' })).toBe(0);
  });
});
