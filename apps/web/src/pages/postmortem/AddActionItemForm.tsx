import type { User } from '@firebreak/schema';
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { type FormEvent, useRef, useState } from 'react';
import { ErrorMessage } from '../../components/ErrorMessage';
import { api } from '../../lib/api';
import type { CreateActionItemInput } from '../../lib/postmortem-types';
import { OwnerSelect } from './OwnerSelect';
import { refocusIfDropped } from './refocus';

type Fields = { title: string; ownerId: string; dueDate: string };
const empty: Fields = { title: '', ownerId: '', dueDate: '' };
const same = (a: Fields, b: Fields) =>
  a.title === b.title && a.ownerId === b.ownerId && a.dueDate === b.dueDate;

const inputOf = (fields: Fields): CreateActionItemInput => ({
  title: fields.title.trim(),
  ...(fields.ownerId ? { owner_id: fields.ownerId } : {}),
  ...(fields.dueDate ? { due_date: fields.dueDate } : {}),
});

export function AddActionItemForm({ incidentId, people }: { incidentId: string; people: User[] }) {
  const queryClient = useQueryClient();
  const [fields, setFields] = useState(empty);
  const titleField = useRef<HTMLInputElement>(null);
  const add = useMutation({
    mutationFn: (sent: Fields) => api.addActionItem(incidentId, inputOf(sent)),
    onSuccess: async (_item, sent) => {
      // Empty for the next item, unless the person went on typing while this one was being added.
      setFields((current) => (same(current, sent) ? empty : current));
      refocusIfDropped(titleField.current);
      await queryClient.invalidateQueries({ queryKey: ['action-items'] });
    },
  });
  const submit = (event: FormEvent) => {
    event.preventDefault();
    if (add.isPending || !fields.title.trim()) return;
    add.mutate(fields);
  };
  return (
    <form className="stack" onSubmit={submit} aria-label="Add an action item">
      <label>
        New action item
        <input
          ref={titleField}
          value={fields.title}
          onChange={(e) => setFields((f) => ({ ...f, title: e.target.value }))}
          placeholder="e.g. Alert on replication lag before the disk fills"
          required
          maxLength={500}
        />
      </label>
      <div className="form-row">
        <OwnerSelect
          label="Owner"
          people={people}
          value={fields.ownerId}
          onChange={(ownerId) => setFields((f) => ({ ...f, ownerId }))}
        />
        <label>
          Due date <span className="hint">(a UTC day)</span>
          <input
            type="date"
            value={fields.dueDate}
            onChange={(e) => setFields((f) => ({ ...f, dueDate: e.target.value }))}
          />
        </label>
        <button
          type="submit"
          style={{ alignSelf: 'end', justifySelf: 'start' }}
          disabled={add.isPending || !fields.title.trim()}
        >
          {add.isPending ? 'Adding…' : 'Add action item'}
        </button>
      </div>
      <ErrorMessage error={add.error} prefix="The action item was not added" />
    </form>
  );
}
