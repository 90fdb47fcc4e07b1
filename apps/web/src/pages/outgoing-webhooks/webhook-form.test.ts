import type { OutgoingWebhook } from '@firebreak/schema';
import { describe, expect, it } from 'vitest';
import { emptyWebhookForm, formOfWebhook, webhookInputOf } from './webhook-form';

const hook: OutgoingWebhook = {
  id: '00000000-0000-4000-8000-000000000001',
  name: 'Status page',
  url: 'https://status.example.com/hooks/firebreak',
  events: ['incident.created', 'incident.resolved'],
  has_secret: true,
  enabled: true,
  created_at: '2026-11-24T10:00:00.000Z',
  updated_at: '2026-11-24T10:00:00.000Z',
};

describe('the outgoing webhook editor', () => {
  it('keeps the stored secret when the field is left empty', () => {
    expect(webhookInputOf(formOfWebhook(hook), hook)).toEqual({
      input: { name: hook.name, url: hook.url, events: hook.events, enabled: true },
    });
  });

  it('sends a typed secret, and null only when removing it', () => {
    const form = formOfWebhook(hook);
    expect(webhookInputOf({ ...form, secret: 'a-new-secret-of-24-chars' }, hook)).toMatchObject({
      input: { secret: 'a-new-secret-of-24-chars' },
    });
    expect(webhookInputOf({ ...form, removeSecret: true }, hook)).toMatchObject({ input: { secret: null } });
  });

  it('creates without a secret field unless one is typed', () => {
    const form = { ...emptyWebhookForm(), name: ' Chat bridge ', url: ' https://bridge.example/in ' };
    expect(webhookInputOf(form, null)).toEqual({
      input: {
        name: 'Chat bridge',
        url: 'https://bridge.example/in',
        events: ['incident.created', 'incident.acknowledged', 'incident.resolved'],
        enabled: true,
      },
    });
  });

  it('orders events as the catalog does and refuses none', () => {
    const form = { ...formOfWebhook(hook), events: ['incident.note_added', 'incident.created'] as const };
    expect(webhookInputOf({ ...form, events: [...form.events] }, hook)).toMatchObject({
      input: { events: ['incident.created', 'incident.note_added'] },
    });
    expect(webhookInputOf({ ...form, events: [] }, hook)).toEqual({ error: 'Choose at least one event.' });
  });
});
