import { useQuery, useQueryClient } from '@tanstack/react-query';
import { type FormEvent, useState } from 'react';
import { useNavigate, useSearchParams } from 'react-router';
import { ErrorMessage } from '../components/ErrorMessage';
import { api } from '../lib/api';

/** Only same-site paths after login, so a crafted `?next=https://…` cannot send anyone elsewhere. */
function safeNext(next: string | null): string {
  return next?.startsWith('/') && !next.startsWith('//') ? next : '/incidents';
}

export function LoginPage() {
  const [params] = useSearchParams();
  const navigate = useNavigate();
  const queryClient = useQueryClient();
  const [email, setEmail] = useState('');
  const [password, setPassword] = useState('');
  const [error, setError] = useState<unknown>(null);
  const [busy, setBusy] = useState(false);
  // Until it answers (or if it fails), the page shows the password form alone, as before SSO existed.
  const authConfig = useQuery({ queryKey: ['auth-config'], queryFn: api.authConfig, retry: false });
  const ssoLoginUrl = authConfig.data?.sso_login_url ?? null;
  const passwordLogin = authConfig.data?.password_login ?? true;

  const submit = async (event: FormEvent) => {
    event.preventDefault();
    setBusy(true);
    setError(null);
    try {
      await api.login(email, password);
      await queryClient.resetQueries({ queryKey: ['me'] });
      navigate(safeNext(params.get('next')), { replace: true });
    } catch (caught) {
      setError(caught);
    } finally {
      setBusy(false);
    }
  };

  return (
    <div className="login-wrap">
      <main className="card login-card">
        <h1>
          <span className="brand-mark" aria-hidden="true" /> Firebreak
        </h1>
        <p className="subtle">Log in to the incident console.</p>
        {ssoLoginUrl && (
          // A full navigation, not a fetch: the provider's login page takes over the window.
          <a className="button primary" href={ssoLoginUrl}>
            Sign in with SSO
          </a>
        )}
        {passwordLogin ? (
          passwordForm()
        ) : (
          <details>
            <summary className="subtle">Break-glass administrator login</summary>
            {passwordForm()}
          </details>
        )}
      </main>
    </div>
  );

  function passwordForm() {
    return (
      <form className="form" onSubmit={submit}>
        <label>
          E-mail
          <input
            type="email"
            autoComplete="username"
            required
            value={email}
            onChange={(e) => setEmail(e.target.value)}
          />
        </label>
        <label>
          Password
          <input
            type="password"
            autoComplete="current-password"
            required
            value={password}
            onChange={(e) => setPassword(e.target.value)}
          />
        </label>
        <ErrorMessage error={error} />
        <button type="submit" className="primary" disabled={busy}>
          {busy ? 'Logging in…' : 'Log in'}
        </button>
      </form>
    );
  }
}
