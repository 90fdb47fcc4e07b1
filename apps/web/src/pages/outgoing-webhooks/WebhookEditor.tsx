import type { OutgoingWebhookEvent } from '@firebreak/schema';
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { type FormEvent, useRef, useState } from 'react';
import { ErrorMessage } from '../../components/ErrorMessage';
import { api, type OutgoingWebhook } from '../../lib/api';
import { useFocusOnMount } from '../../lib/focus';
import { randomSecret } from '../settings/signature-recipe';
import {
  emptyWebhookForm,
  eventLabel,
  formOfWebhook,
  type WebhookForm,
  webhookEvents,
  webhookInputOf,
} from './webhook-form';

export function WebhookEditor({
  webhook,
  onClose,
}: {
  webhook: OutgoingWebhook | null;
  onClose: () => void;
}) {
  const [form, setForm] = useState<WebhookForm>(() =>
    webhook ? formOfWebhook(webhook) : emptyWebhookForm(),
  );
  const [formError, setFormError] = useState<string | null>(null);
  const set = <K extends keyof WebhookForm>(key: K, value: WebhookForm[K]) =>
    setForm((f) => ({ ...f, [key]: value }));
  const nameField = useRef<HTMLInputElement>(null);
  useFocusOnMount(nameField);
  const queryClient = useQueryClient();
  const save = useMutation({
    mutationFn: (input: Parameters<typeof api.createOutgoingWebhook>[0]) =>
      webhook ? api.updateOutgoingWebhook(webhook.id, input) : api.createOutgoingWebhook(input),
    onSuccess: async () => {
      await queryClient.invalidateQueries({ queryKey: ['outgoing-webhooks'] });
      onClose();
    },
  });
  const submit = (event: FormEvent) => {
    event.preventDefault();
    const made = webhookInputOf(form, webhook);
    if ('error' in made) {
      setFormError(made.error);
      return;
    }
    setFormError(null);
    save.mutate(made.input);
  };
  const toggleEvent = (event: OutgoingWebhookEvent, on: boolean) =>
    set('events', on ? [...form.events, event] : form.events.filter((e) => e !== event));

  return (
    <form
      className="card form"
      onSubmit={submit}
      aria-label={webhook ? `Edit webhook ${webhook.name}` : 'New outgoing webhook'}
      style={{ marginBottom: '1rem' }}
    >
      <h2>{webhook ? `Edit “${webhook.name}”` : 'New outgoing webhook'}</h2>
      <div className="form-row">
        <label>
          Name
          <input ref={nameField} required value={form.name} onChange={(e) => set('name', e.target.value)} />
        </label>
        <label style={{ gridColumn: 'span 2' }}>
          URL <span className="hint">http:// or https://; receives a POST per event</span>
          <input type="url" required value={form.url} onChange={(e) => set('url', e.target.value)} />
        </label>
        <label className="inline" style={{ alignSelf: 'end' }}>
          <input type="checkbox" checked={form.enabled} onChange={(e) => set('enabled', e.target.checked)} />
          Enabled
        </label>
      </div>
      <fieldset className="actions">
        <legend>Send when an incident is</legend>
        {webhookEvents.map((event) => (
          <label key={event} className="inline">
            <input
              type="checkbox"
              checked={form.events.includes(event)}
              onChange={(e) => toggleEvent(event, e.target.checked)}
            />
            {eventLabel[event]} <code className="subtle">{event}</code>
          </label>
        ))}
      </fieldset>
      <label>
        {webhook?.has_secret ? 'New signing secret' : 'Signing secret'}{' '}
        <span className="hint">
          {webhook?.has_secret
            ? 'a secret is set; leave empty to keep it. Never shown again once saved'
            : 'optional, at least 16 characters; signs each delivery (X-Firebreak-Signature). Never shown again once saved'}
        </span>
        <div className="actions" style={{ flexWrap: 'nowrap' }}>
          <input
            className="mono"
            value={form.secret}
            disabled={form.removeSecret}
            onChange={(e) => set('secret', e.target.value)}
            minLength={16}
            autoComplete="off"
            spellCheck={false}
          />
          <button type="button" disabled={form.removeSecret} onClick={() => set('secret', randomSecret())}>
            Generate
          </button>
        </div>
      </label>
      {webhook?.has_secret ? (
        <label className="inline">
          <input
            type="checkbox"
            checked={form.removeSecret}
            onChange={(e) => setForm((f) => ({ ...f, removeSecret: e.target.checked, secret: '' }))}
          />
          Remove the secret: deliveries are sent unsigned
        </label>
      ) : null}
      <ErrorMessage error={formError ?? save.error} prefix="The webhook was not saved" />
      <div className="actions">
        <button type="submit" className="primary" disabled={save.isPending}>
          {save.isPending ? 'Saving…' : 'Save webhook'}
        </button>
        <button type="button" onClick={onClose}>
          Cancel
        </button>
      </div>
    </form>
  );
}
