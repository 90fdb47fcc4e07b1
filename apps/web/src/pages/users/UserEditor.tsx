import type { Role, User } from '@firebreak/schema';
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { useState } from 'react';
import { EditorForm } from '../../components/EditorForm';
import { NameField } from '../../components/NameField';
import { api } from '../../lib/api';
import { roles } from '../../lib/labels';
import { useValidatedSubmit } from '../../lib/validated-submit';
import { formOfUser, type UserChange, type UserForm, userChangeOf } from './user-form';

/** Admins change a person's name, role, chat user and whether they may sign in and be paged. */
export function UserEditor({ user, onClose }: { user: User; onClose: () => void }) {
  const [form, setForm] = useState<UserForm>(() => formOfUser(user));
  const queryClient = useQueryClient();
  const save = useMutation({
    mutationFn: (change: UserChange) => api.updateUser(user.id, change),
    onSuccess: async () => {
      await queryClient.invalidateQueries({ queryKey: ['users'] });
      await queryClient.invalidateQueries({ queryKey: ['me'] });
      onClose();
    },
  });
  const { formError, submit } = useValidatedSubmit(
    () => {
      const made = userChangeOf(user, form);
      return 'error' in made ? made : { input: made.change };
    },
    // A form left as it was asks nothing of the API.
    (change) => (Object.keys(change).length === 0 ? onClose() : save.mutate(change)),
  );
  return (
    <EditorForm
      label={`Edit user ${user.name}`}
      title={`Edit “${user.name}”`}
      onSubmit={submit}
      error={formError ?? save.error}
      errorPrefix="The user was not changed"
      pending={save.isPending}
      submitLabel="Save user"
      onCancel={onClose}
    >
      <p className="subtle small">{user.email}</p>
      <div className="form-row">
        <NameField value={form.name} onChange={(name) => setForm({ ...form, name })} />
        <label>
          Role
          <select value={form.role} onChange={(e) => setForm({ ...form, role: e.target.value as Role })}>
            {roles.map((role) => (
              <option key={role}>{role}</option>
            ))}
          </select>
        </label>
        <label>
          Chat user id <span className="hint">e.g. U024BE7LH; empty for none</span>
          <input
            className="mono"
            spellCheck={false}
            value={form.slackUserId}
            onChange={(e) => setForm({ ...form, slackUserId: e.target.value })}
          />
        </label>
        <label>
          Teams user id <span className="hint">Microsoft Entra object id; empty for none</span>
          <input
            className="mono"
            spellCheck={false}
            value={form.teamsUserId}
            onChange={(e) => setForm({ ...form, teamsUserId: e.target.value })}
          />
        </label>
      </div>
      <div className="actions">
        <label className="inline">
          <input
            type="checkbox"
            checked={form.active}
            onChange={(e) => setForm({ ...form, active: e.target.checked })}
          />
          Active <span className="hint">a deactivated user cannot sign in and is not paged</span>
        </label>
        <label className="inline">
          <input
            type="checkbox"
            checked={form.shiftNotices}
            onChange={(e) => setForm({ ...form, shiftNotices: e.target.checked })}
          />
          Shift notices <span className="hint">a chat message when their shift starts</span>
        </label>
      </div>
    </EditorForm>
  );
}
