// The audit log is append-only: a credential a webhook URL carries must never reach it.
import type { outgoingWebhooks } from '@firebreak/db';
import { describe, expect, it } from 'vitest';
import { redactSecrets } from '../audit';
import { auditableUrl, presentWebhook, webhookAuditView } from './present';

const row = (url: string): outgoingWebhooks.OutgoingWebhookRow => ({
  id: '00000000-0000-4000-8000-000000000001',
  name: 'Chat hook',
  url,
  events: ['incident.created'],
  secret: 'signing-secret',
  enabled: true,
  created_at: new Date('2026-01-01T00:00:00Z'),
  updated_at: new Date('2026-01-01T00:00:00Z'),
});

describe('webhook URLs in the audit log', () => {
  it('keep scheme, host and port, and only say a path or query was there', () => {
    const slack = 'https://hooks.slack.com/services/T000/B000/XXXXsecretXXXX';
    const view = redactSecrets(webhookAuditView(row(slack)));
    expect(view).toMatchObject({ url: 'https://hooks.slack.com/[redacted]', secret: '[redacted]' });
    expect(JSON.stringify(view)).not.toContain('XXXXsecretXXXX');
    expect(JSON.stringify(view)).not.toContain('signing-secret');
    // The API itself still answers the full URL to whoever may manage webhooks.
    expect(presentWebhook(row(slack)).url).toBe(slack);
  });

  it('cut queries, user info and fragments too, and keep a bare origin as it is', () => {
    expect(auditableUrl('http://status.example:8080/?token=abc')).toBe(
      'http://status.example:8080/[redacted]',
    );
    expect(auditableUrl('https://user:pass@status.example/')).toBe('https://status.example');
    expect(auditableUrl('https://status.example#key')).toBe('https://status.example/[redacted]');
    expect(auditableUrl('https://status.example:443')).toBe('https://status.example');
    expect(auditableUrl('not a url with a secret')).toBe('[redacted]');
  });
});
