import { useMutation, useQueryClient } from '@tanstack/react-query';
import { type FormEvent, useState } from 'react';
import { ErrorMessage } from '../../components/ErrorMessage';
import { api } from '../../lib/api';
import { canWrite, useMe } from '../../lib/session';

export function NoteForm({ incidentId }: { incidentId: string }) {
  const me = useMe();
  const [text, setText] = useState('');
  const queryClient = useQueryClient();
  const add = useMutation({
    mutationFn: () => api.addNote(incidentId, text),
    onSuccess: async () => {
      setText('');
      await queryClient.invalidateQueries({ queryKey: ['timeline', incidentId] });
    },
  });
  if (!canWrite(me.data, 'member')) return null;
  const submit = (event: FormEvent) => {
    event.preventDefault();
    add.mutate();
  };
  return (
    <form className="card form" onSubmit={submit} aria-label="Notes">
      <label>
        Add a note
        <textarea
          value={text}
          onChange={(e) => setText(e.target.value)}
          placeholder="What you found, what you tried, what is next…"
          required
          maxLength={20_000}
        />
      </label>
      <ErrorMessage error={add.error} prefix="The note was not saved" />
      <div className="actions">
        <button type="submit" className="primary" disabled={add.isPending || !text.trim()}>
          {add.isPending ? 'Adding…' : 'Add note'}
        </button>
      </div>
    </form>
  );
}
