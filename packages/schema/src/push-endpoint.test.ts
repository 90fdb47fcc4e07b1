// The worker POSTs every push page to a subscription's endpoint: a plain-http endpoint on another host
// would let a member make the server call an internal address, so only https (and loopback http) passes.
import { describe, expect, it } from 'vitest';
import { CreateContactMethodInput, isInternalAddress } from './paging';

const keys = { p256dh: 'B'.repeat(87), auth: 'A'.repeat(22) };
const push = (endpoint: string) =>
  CreateContactMethodInput.safeParse({ type: 'push', subscription: { endpoint, keys } });

describe('a push subscription’s endpoint', () => {
  it('accepts https anywhere and http on a loopback host', () => {
    for (const endpoint of [
      'https://fcm.googleapis.com/fcm/send/abc',
      'http://127.0.0.1:4567/push/abc',
      'http://localhost:4567/push/abc',
      'http://[::1]:4567/push/abc',
    ]) {
      expect(push(endpoint).success, endpoint).toBe(true);
    }
  });

  it('refuses http to any other host, naming the field and the rule', () => {
    for (const endpoint of [
      'http://10.0.0.5/push/abc',
      'http://169.254.169.254/latest/meta-data',
      'http://redis.internal:6379/',
      'http://localhost.example.com/push',
      'ftp://push.example.com/abc',
      'not a url',
    ]) {
      const parsed = push(endpoint);
      expect(parsed.success, endpoint).toBe(false);
      expect(parsed.error?.issues.map((i) => i.path.join('.'))).toEqual(['subscription.endpoint']);
    }
    expect(push('http://10.0.0.5/push/abc').error?.issues[0]?.message).toBe(
      'must be an https:// URL (http:// only for localhost, 127.0.0.1 or [::1])',
    );
  });
});

describe('a push endpoint at an IP address', () => {
  it('refuses private, shared, link-local, loopback and reserved ranges, https or not', () => {
    for (const endpoint of [
      'https://10.0.0.5/push/abc',
      'https://172.20.1.1/push',
      'https://192.168.1.10/push',
      'https://100.64.0.1/push',
      'https://169.254.169.254/latest/meta-data',
      'https://0x7f000002/push',
      'https://127.0.0.2/push',
      'https://0.0.0.0/push',
      'https://224.0.0.1/push',
      'https://[fd00:ec2::254]/latest/meta-data',
      'https://[fe80::1]/push',
      'https://[::ffff:10.0.0.1]/push',
      'https://[::ffff:a9fe:a9fe]/push',
      'https://[64:ff9b::a9fe:a9fe]/push',
      'https://[::]/push',
    ]) {
      const parsed = push(endpoint);
      expect(parsed.success, endpoint).toBe(false);
      expect(parsed.error?.issues.map((i) => i.message)).toEqual([
        'must not be a private, link-local, loopback or reserved IP address',
      ]);
    }
  });

  it('accepts public addresses and names, which are judged again by their addresses when sending', () => {
    for (const endpoint of [
      'https://8.8.8.8/push',
      'https://[2001:4860:4860::8888]/push',
      'https://172.32.0.1/push',
      'https://updates.push.services.mozilla.com/wpush/v2/abc',
    ]) {
      expect(push(endpoint).success, endpoint).toBe(true);
    }
    expect(isInternalAddress('push.example.com')).toBe(false);
    expect(isInternalAddress('::1')).toBe(true);
    expect(isInternalAddress('2606:4700::1111')).toBe(false);
  });
});
