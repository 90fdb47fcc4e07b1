import { describe, expect, it } from 'vitest';
import { classifySlackError } from './errors';

// Errors as @slack/web-api throws them: a platform error carries `data.error`, a 429 `retryAfter`.
const refusal = (code: string) => ({ code: 'slack_webapi_platform_error', data: { ok: false, error: code } });

describe('classifySlackError', () => {
  it.each([
    ['name_taken', 'name_taken'],
    ['invalid_name_specials', 'invalid_name'],
    ['invalid_name_maxlength', 'invalid_name'],
    ['not_in_channel', 'not_in_channel'],
    ['restricted_action', 'not_permitted'],
    ['not_authorized', 'not_permitted'],
    ['already_in_channel', 'already_member'],
    ['cant_invite_self', 'already_member'],
    ['user_not_found', 'about_the_person'],
    ['user_disabled', 'about_the_person'],
    ['channel_not_found', 'other'],
    ['invalid_auth', 'other'],
  ])('maps the refusal %s to %s, keeping Slack’s code', (code, reason) => {
    expect(classifySlackError(refusal(code))).toEqual({ kind: 'refused', code, reason });
  });

  it('takes 429s and rate-limit bodies as rate limits, with Retry-After', () => {
    expect(classifySlackError({ code: 'slack_webapi_rate_limited_error', retryAfter: 12 })).toEqual({
      kind: 'rate_limited',
      code: 'ratelimited',
      retryAfterS: 12,
    });
    expect(classifySlackError(refusal('message_limit_exceeded'))).toMatchObject({ kind: 'rate_limited' });
  });

  it('takes outages as transient and leaves other errors alone', () => {
    expect(classifySlackError(refusal('internal_error'))).toEqual({
      kind: 'transient',
      code: 'internal_error',
    });
    expect(classifySlackError({ code: 'slack_webapi_http_error', statusCode: 503 })).toEqual({
      kind: 'transient',
      code: 'http_503',
    });
    expect(classifySlackError({ code: 'slack_webapi_request_error' })).toEqual({
      kind: 'transient',
      code: 'network_error',
    });
    expect(classifySlackError(new TypeError('a bug of ours'))).toBeUndefined();
  });
});
