import { describe, expect, it } from 'vitest';
import { ConfigError, loadConfig } from './config';

function problemsOf(env: Record<string, string>): string[] {
  try {
    loadConfig(env);
  } catch (error) {
    if (error instanceof ConfigError) return error.problems;
    throw error;
  }
  return [];
}

const twilio = { TWILIO_ACCOUNT_SID: 'AC123', TWILIO_AUTH_TOKEN: 'secret', TWILIO_FROM: '+14155550100' };
const vapid = {
  VAPID_PUBLIC_KEY: 'BPub',
  VAPID_PRIVATE_KEY: 'priv',
  VAPID_SUBJECT: 'mailto:ops@example.com',
};
const smtp = { SMTP_URL: 'smtp://mail.example.com:587' };

// Pages carry links built from PUBLIC_URL; without it they would point at localhost (docs/paging.md).
describe('PUBLIC_URL with paging', () => {
  it('is required by every method whose pages carry links, naming them', () => {
    expect(problemsOf(smtp)).toEqual([
      "PUBLIC_URL: is required when SMTP_URL is set: every page's links start with it",
    ]);
    expect(problemsOf(twilio)).toEqual([
      "PUBLIC_URL: is required when TWILIO_* is set: every page's links start with it",
    ]);
    expect(problemsOf({ ...smtp, ...vapid })).toEqual([
      "PUBLIC_URL: is required when SMTP_URL or VAPID_* is set: every page's links start with it",
    ]);
  });

  it('is satisfied by PUBLIC_URL, and not asked for without paging', () => {
    expect(problemsOf({ ...smtp, ...twilio, ...vapid, PUBLIC_URL: 'https://firebreak.example.com' })).toEqual(
      [],
    );
    expect(problemsOf({})).toEqual([]);
  });
});
