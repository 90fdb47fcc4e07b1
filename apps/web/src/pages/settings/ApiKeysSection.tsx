import type { Role } from '@firebreak/schema';
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { type FormEvent, useState } from 'react';
import { ErrorMessage } from '../../components/ErrorMessage';
import { api } from '../../lib/api';
import { formatRelative } from '../../lib/format';
import { roles } from '../../lib/labels';

export function ApiKeysSection() {
  const keys = useQuery({ queryKey: ['api-keys'], queryFn: api.apiKeys });
  const queryClient = useQueryClient();
  const [name, setName] = useState('');
  const [role, setRole] = useState<Role>('member');
  const [token, setToken] = useState<string | null>(null);
  const refresh = () => queryClient.invalidateQueries({ queryKey: ['api-keys'] });
  const create = useMutation({
    mutationFn: () => api.createApiKey(name, role),
    onSuccess: async (created) => {
      setToken(created.token);
      setName('');
      await refresh();
    },
  });
  const revoke = useMutation({ mutationFn: api.revokeApiKey, onSuccess: refresh });
  const submit = (event: FormEvent) => {
    event.preventDefault();
    create.mutate();
  };
  return (
    <section className="card stack" aria-labelledby="api-keys-heading">
      <h2 id="api-keys-heading">API keys</h2>
      <form className="actions" onSubmit={submit} aria-label="New API key">
        <label className="inline">
          Name
          <input required value={name} onChange={(e) => setName(e.target.value)} style={{ width: '14rem' }} />
        </label>
        <label className="inline">
          Role
          <select value={role} onChange={(e) => setRole(e.target.value as Role)} style={{ width: 'auto' }}>
            {roles.map((r) => (
              <option key={r}>{r}</option>
            ))}
          </select>
        </label>
        <button type="submit" disabled={create.isPending}>
          Create key
        </button>
      </form>
      {token ? (
        <div role="status" className="alert-box alert-ok">
          Copy this token now; it is not shown again:
          <div className="secret">{token}</div>
        </div>
      ) : null}
      <ErrorMessage error={keys.error ?? create.error ?? revoke.error} />
      <div className="table-wrap">
        <table aria-label="API keys">
          <thead>
            <tr>
              <th>Name</th>
              <th>Role</th>
              <th>Created by</th>
              <th>Created</th>
              <th>Last used</th>
              <th />
            </tr>
          </thead>
          <tbody>
            {keys.data?.api_keys.map((key) => (
              <tr key={key.id}>
                <td>{key.name}</td>
                <td>{key.role}</td>
                {/* The key acts for this person, never above their current role (docs/api.md#authentication). */}
                <td>
                  {key.created_by
                    ? `${key.created_by.name} (${key.created_by.active ? key.created_by.role : 'deactivated'})`
                    : '—'}
                </td>
                <td>{formatRelative(key.created_at)}</td>
                <td>{key.last_used_at ? formatRelative(key.last_used_at) : 'never'}</td>
                <td>
                  <button
                    type="button"
                    className="danger"
                    onClick={() => revoke.mutate(key.id)}
                    aria-label={`Revoke ${key.name}`}
                  >
                    Revoke
                  </button>
                </td>
              </tr>
            ))}
          </tbody>
        </table>
        {keys.data?.api_keys.length === 0 ? <p className="empty">No API keys.</p> : null}
      </div>
    </section>
  );
}
