import { useMutation, useQueryClient } from '@tanstack/react-query';
import { type FormEvent, useState } from 'react';
import { ErrorMessage } from '../../components/ErrorMessage';
import { statusPageApi } from '../../lib/api-status-page';

/** The public page's heading (the `status_page_title` setting); admins change it, others read it. */
export function TitleForm({ title, admin }: { title: string; admin: boolean }) {
  const [value, setValue] = useState(title);
  const queryClient = useQueryClient();
  const save = useMutation({
    mutationFn: () => statusPageApi.setTitle(value.trim()),
    onSuccess: (view) => queryClient.setQueryData(['settings'], view),
  });
  const submit = (event: FormEvent) => {
    event.preventDefault();
    save.mutate();
  };
  return (
    <form className="card form sp-title" onSubmit={submit} aria-label="Page title">
      <label>
        Page title <span className="hint">the heading of the public page and its feed</span>
        <input
          required
          maxLength={100}
          value={value}
          disabled={!admin}
          onChange={(e) => setValue(e.target.value)}
        />
      </label>
      <ErrorMessage error={save.error} prefix="The title was not saved" />
      {admin ? (
        <div className="actions">
          <button type="submit" disabled={save.isPending || !value.trim() || value.trim() === title}>
            {save.isPending ? 'Saving…' : 'Save title'}
          </button>
          {save.isSuccess && value.trim() === title ? (
            <span role="status" className="subtle small">
              Saved.
            </span>
          ) : null}
        </div>
      ) : null}
    </form>
  );
}
