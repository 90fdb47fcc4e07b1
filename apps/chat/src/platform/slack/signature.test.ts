import { describe, expect, it } from 'vitest';
import { checkChatSignature } from './signature';

// The signing rule (docs/integrations/slack.md#signing): the vector from Slack's documentation, and our
// own over a slash command's form body.
const slackDocs = {
  secret: '8f742231b10e8888abcd99yyyzzz85a5',
  timestamp: '1531420618',
  body: 'token=xyzz0WbapA4vBCDEFasx0q6G&team_id=T1DC2JH3J&team_domain=testteamnow&channel_id=G8PSS9T3V&channel_name=foobar&user_id=U2CERLKJA&user_name=roadrunner&command=%2Fwebhook-collect&text=&response_url=https%3A%2F%2Fhooks.slack.com%2Fcommands%2FT1DC2JH3J%2F397700885554%2F96rGlfmibIGlgcZRskXaIFfN&trigger_id=398738663015.47445629121.803a0bc887a14d10d2c447fce8b6703c',
  signature: 'v0=a2114d57b48eac39b9ad189dd8316235a7b4a8d21a10bd27519666489c69b503',
};
const ours = {
  secret: 'test-signing-secret',
  timestamp: '1718180700',
  body: 'token=deprecated-verification-token&team_id=T0TEAM001&team_domain=acme&channel_id=C0INC0042&channel_name=inc-42-database-primary-down&user_id=U0ALICE01&user_name=alice&command=%2Fincident&text=ack&api_app_id=A0APP0001&is_enterprise_install=false&response_url=https%3A%2F%2Fhooks.slack.com%2Fcommands%2FT0TEAM001%2F1234567890%2FabcdefXYZ&trigger_id=1234567890.1111111111.0123456789abcdef0123456789abcdef',
  signature: 'v0=cb999bd090fde1eb40cc2cd59768ea34fddacd792f22f48f3cf3d82b9f9258ec',
};

const check = (v: typeof ours, now: number, change: Partial<{ body: string; signature: string }> = {}) =>
  checkChatSignature(
    v.secret,
    { timestamp: v.timestamp, signature: change.signature ?? v.signature, rawBody: change.body ?? v.body },
    now,
  );

describe('checkChatSignature', () => {
  it('accepts both test vectors at their own time', () => {
    expect(check(slackDocs, Number(slackDocs.timestamp))).toBeNull();
    expect(check(ours, Number(ours.timestamp))).toBeNull();
  });

  it('accepts up to 5 minutes either way and refuses beyond', () => {
    const ts = Number(ours.timestamp);
    expect(check(ours, ts + 300)).toBeNull();
    expect(check(ours, ts - 300)).toBeNull();
    expect(check(ours, ts + 301)).toBe('stale_timestamp');
    expect(check(ours, ts - 301)).toBe('stale_timestamp');
  });

  it('refuses a changed body, a changed signature, another version and missing parts', () => {
    const now = Number(ours.timestamp);
    expect(check(ours, now, { body: ours.body.replace('text=ack', 'text=resolve') })).toBe('mismatch');
    expect(check(ours, now, { signature: `${ours.signature.slice(0, -1)}0` })).toBe('mismatch');
    expect(check(ours, now, { signature: ours.signature.slice(0, 20) })).toBe('mismatch');
    expect(check(ours, now, { signature: ours.signature.replace('v0=', 'v1=') })).toBe('unknown_version');
    expect(
      checkChatSignature(ours.secret, { timestamp: undefined, signature: ours.signature, rawBody: '' }, now),
    ).toBe('missing_headers');
    expect(
      checkChatSignature(ours.secret, { timestamp: 'soon', signature: ours.signature, rawBody: '' }, now),
    ).toBe('bad_timestamp');
    expect(
      checkChatSignature(
        undefined,
        { timestamp: ours.timestamp, signature: ours.signature, rawBody: ours.body },
        now,
      ),
    ).toBe('no_signing_secret');
  });

  it('refuses a signature made with another secret', () => {
    expect(check({ ...ours, secret: 'another-secret' }, Number(ours.timestamp))).toBe('mismatch');
  });
});
