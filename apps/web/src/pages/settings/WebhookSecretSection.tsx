import type { SettingsView } from '@firebreak/schema';
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { type FormEvent, useState } from 'react';
import { ErrorMessage } from '../../components/ErrorMessage';
import { api } from '../../lib/api';
import { randomSecret, signatureRecipe } from './signature-recipe';

/** Settings → Integrations → Generic Webhook: the secret goes in and is never shown again. */
export function WebhookSecretSection({ settings, admin }: { settings: SettingsView; admin: boolean }) {
  const [secret, setSecret] = useState('');
  const [saved, setSaved] = useState<string | null>(null);
  const queryClient = useQueryClient();
  const save = useMutation({
    mutationFn: (value: string | null) => api.setSigningSecret(value),
    onSuccess: (view, value) => {
      queryClient.setQueryData(['settings'], view);
      setSaved(
        value === null ? 'Signing secret removed: unsigned requests are accepted.' : 'Signing secret saved.',
      );
      setSecret('');
    },
  });
  const submit = (event: FormEvent) => {
    event.preventDefault();
    setSaved(null);
    save.mutate(secret);
  };
  const isSet = settings.generic_webhook.signing_secret_set;
  return (
    <section className="card stack" aria-labelledby="generic-webhook-heading">
      <div>
        <h2 id="generic-webhook-heading">Integrations → Generic Webhook</h2>
        <p style={{ margin: 0 }}>
          Signing secret:{' '}
          <strong data-testid="signing-secret-state">
            {isSet ? 'set — requests must be signed' : 'not set — unsigned requests are accepted'}
          </strong>
        </p>
      </div>
      {admin ? (
        <form className="form" onSubmit={submit} aria-label="Signing secret">
          <label>
            New signing secret{' '}
            <span className="hint">at least 16 characters; shown only until you save it</span>
            <div className="actions" style={{ flexWrap: 'nowrap' }}>
              <input
                className="mono"
                value={secret}
                onChange={(e) => setSecret(e.target.value)}
                minLength={16}
                required
                autoComplete="off"
                spellCheck={false}
              />
              <button type="button" onClick={() => setSecret(randomSecret())}>
                Generate
              </button>
            </div>
          </label>
          <div className="actions">
            <button type="submit" className="primary" disabled={save.isPending}>
              Save secret
            </button>
            {isSet ? (
              <button
                type="button"
                className="danger"
                disabled={save.isPending}
                onClick={() => save.mutate(null)}
              >
                Remove secret
              </button>
            ) : null}
          </div>
          <ErrorMessage error={save.error} prefix="The secret was not saved" />
          {saved ? (
            <div role="status" className="alert-box alert-ok">
              {saved}
            </div>
          ) : null}
        </form>
      ) : null}
      <div>
        <h3>Signing a request</h3>
        <p className="small subtle" style={{ marginTop: 0 }}>
          Send <code>X-Service-Signature: sha256=&lt;hex&gt;</code>, the HMAC-SHA256 of the exact request body
          under the secret. With the secret in <code>$SECRET</code>:
        </p>
        <pre data-testid="signature-recipe">{signatureRecipe(window.location.origin)}</pre>
      </div>
    </section>
  );
}
