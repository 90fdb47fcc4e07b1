import type { Role } from '@firebreak/schema';
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { type FormEvent, useEffect, useRef, useState } from 'react';
import { ErrorMessage } from '../components/ErrorMessage';
import { TableScroll } from '../components/TableScroll';
import { api } from '../lib/api';
import { useFocusOnClose } from '../lib/focus';
import { roles } from '../lib/labels';
import { canWrite, useMe } from '../lib/session';
import { UserEditor } from './users/UserEditor';

export function UsersPage() {
  const me = useMe();
  const admin = canWrite(me.data, 'admin');
  const users = useQuery({ queryKey: ['users'], queryFn: api.users });
  const [editing, setEditing] = useState<string | null>(null);
  const editingUser = users.data?.users.find((u) => u.id === editing);
  const opener = useRef<string | null>(null);
  useFocusOnClose(editing !== null, () =>
    document.querySelector<HTMLElement>(`[data-opens="${opener.current ?? ''}"]`),
  );
  return (
    <>
      <div className="page-head">
        <h1>Users</h1>
      </div>
      {admin ? <NewUserForm /> : null}
      {editingUser ? (
        <UserEditor key={editingUser.id} user={editingUser} onClose={() => setEditing(null)} />
      ) : null}
      <ErrorMessage error={users.error} prefix="Could not load users" />
      <TableScroll label="Users" className="card" style={{ padding: 0 }}>
        <table aria-label="Users">
          <thead>
            <tr>
              <th>Name</th>
              <th>E-mail</th>
              <th>Role</th>
              <th>Chat user</th>
              <th>Sign-in</th>
              <th>State</th>
              {admin ? <th>Actions</th> : null}
            </tr>
          </thead>
          <tbody>
            {users.data?.users.map((user) => (
              <tr key={user.id}>
                <td style={{ fontWeight: 600 }}>{user.name}</td>
                <td>{user.email}</td>
                <td>{user.role}</td>
                <td className="mono">{user.slack_user_id ?? '—'}</td>
                <td>{user.auth_source}</td>
                <td>{user.active ? 'Active' : <span className="subtle">Deactivated</span>}</td>
                {admin ? (
                  <td>
                    <button
                      type="button"
                      data-opens={user.id}
                      aria-label={`Edit ${user.name}`}
                      onClick={() => {
                        opener.current = user.id;
                        setEditing(user.id);
                      }}
                    >
                      Edit
                    </button>
                  </td>
                ) : null}
              </tr>
            ))}
          </tbody>
        </table>
      </TableScroll>
    </>
  );
}

function NewUserForm() {
  const [open, setOpen] = useState(false);
  const newUser = useRef<HTMLButtonElement>(null);
  const nameField = useRef<HTMLInputElement>(null);
  useEffect(() => {
    if (open) nameField.current?.focus();
  }, [open]);
  useFocusOnClose(open, () => newUser.current);
  const [form, setForm] = useState({ name: '', email: '', role: 'member' as Role, password: '' });
  const queryClient = useQueryClient();
  const create = useMutation({
    mutationFn: () =>
      api.createUser({
        name: form.name,
        email: form.email,
        role: form.role,
        ...(form.password ? { password: form.password } : {}),
      }),
    onSuccess: async () => {
      await queryClient.invalidateQueries({ queryKey: ['users'] });
      setForm({ name: '', email: '', role: 'member', password: '' });
      setOpen(false);
    },
  });
  if (!open) {
    return (
      <p>
        <button ref={newUser} type="button" className="primary" onClick={() => setOpen(true)}>
          New user
        </button>
      </p>
    );
  }
  const submit = (event: FormEvent) => {
    event.preventDefault();
    create.mutate();
  };
  return (
    <form className="card form" onSubmit={submit} aria-label="New user" style={{ marginBottom: '1rem' }}>
      <div className="form-row">
        <label>
          Name
          <input
            ref={nameField}
            required
            value={form.name}
            onChange={(e) => setForm({ ...form, name: e.target.value })}
          />
        </label>
        <label>
          E-mail
          <input
            type="email"
            required
            value={form.email}
            onChange={(e) => setForm({ ...form, email: e.target.value })}
          />
        </label>
        <label>
          Role
          <select value={form.role} onChange={(e) => setForm({ ...form, role: e.target.value as Role })}>
            {roles.map((role) => (
              <option key={role}>{role}</option>
            ))}
          </select>
        </label>
        <label>
          Password <span className="hint">optional</span>
          <input
            type="password"
            autoComplete="new-password"
            value={form.password}
            onChange={(e) => setForm({ ...form, password: e.target.value })}
          />
        </label>
      </div>
      <ErrorMessage error={create.error} prefix="The user was not created" />
      <div className="actions">
        <button type="submit" className="primary" disabled={create.isPending}>
          Create user
        </button>
        <button type="button" onClick={() => setOpen(false)}>
          Cancel
        </button>
      </div>
    </form>
  );
}
