import type { User } from '@firebreak/schema';
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { type FormEvent, useEffect, useRef, useState } from 'react';
import { ErrorMessage } from '../../components/ErrorMessage';
import { api } from '../../lib/api';
import { formatDueDate, isOverdue } from '../../lib/due-dates';
import { useFocusOnClose } from '../../lib/focus';
import type { ActionItem, UpdateActionItemInput } from '../../lib/postmortem-types';
import { OwnerSelect } from './OwnerSelect';

interface Props {
  incidentId: string;
  item: ActionItem;
  people: User[];
  writer: boolean;
}

/** One action item: done or open at one click, edited in place, deleted after a confirmation. */
export function ActionItemRow({ incidentId, item, people, writer }: Props) {
  const queryClient = useQueryClient();
  const [editing, setEditing] = useState(false);
  const [fields, setFields] = useState({ title: '', ownerId: '', dueDate: '' });
  const titleField = useRef<HTMLInputElement>(null);
  const editButton = useRef<HTMLButtonElement>(null);
  // The form replaces the row: the focus goes into it, and back to Edit when it closes.
  useEffect(() => {
    if (editing) titleField.current?.focus();
  }, [editing]);
  useFocusOnClose(editing, () => editButton.current);
  const refresh = () => queryClient.invalidateQueries({ queryKey: ['action-items'] });
  const update = useMutation({
    mutationFn: (changes: UpdateActionItemInput) => api.updateActionItem(incidentId, item.id, changes),
    onSuccess: async () => {
      setEditing(false);
      await refresh();
    },
  });
  const remove = useMutation({
    mutationFn: () => api.deleteActionItem(incidentId, item.id),
    onSuccess: refresh,
  });
  const overdue = isOverdue(item);
  const startEditing = () => {
    setFields({ title: item.title, ownerId: item.owner?.id ?? '', dueDate: item.due_date ?? '' });
    update.reset();
    setEditing(true);
  };
  const submit = (event: FormEvent) => {
    event.preventDefault();
    if (update.isPending || !fields.title.trim()) return;
    update.mutate({
      title: fields.title.trim(),
      owner_id: fields.ownerId || null,
      due_date: fields.dueDate || null,
    });
  };
  const confirmDelete = () => {
    if (window.confirm(`Delete the action item “${item.title}”?`)) remove.mutate();
  };

  if (editing) {
    return (
      <li>
        <form className="stack" style={{ flex: 1 }} onSubmit={submit} aria-label={`Edit ${item.title}`}>
          <label>
            Title
            <input
              ref={titleField}
              value={fields.title}
              onChange={(e) => setFields((f) => ({ ...f, title: e.target.value }))}
              required
              maxLength={500}
            />
          </label>
          <div className="form-row">
            <OwnerSelect
              label="Owner"
              people={people}
              current={item.owner}
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
          </div>
          <div className="actions">
            <button type="submit" className="primary" disabled={update.isPending || !fields.title.trim()}>
              Save
            </button>
            <button type="button" onClick={() => setEditing(false)}>
              Cancel
            </button>
          </div>
          <ErrorMessage error={update.error} prefix="The action item was not changed" />
        </form>
      </li>
    );
  }
  return (
    <li className={overdue ? 'overdue' : undefined}>
      <div className="stack" style={{ gap: '0.2rem', flex: 1 }}>
        <label className="inline">
          <input
            type="checkbox"
            checked={item.status === 'done'}
            disabled={!writer || update.isPending}
            onChange={(e) => update.mutate({ status: e.target.checked ? 'done' : 'open' })}
          />
          <span className={item.status === 'done' ? 'done-text' : undefined}>{item.title}</span>
        </label>
        <span className="small subtle">
          {item.owner ? item.owner.name : 'No owner'}
          {item.due_date ? ` · due ${formatDueDate(item.due_date)}` : ' · no due date'}
          {overdue ? <strong className="overdue-mark"> · Overdue</strong> : null}
          {item.status === 'done' ? ' · Done' : ''}
        </span>
        <ErrorMessage error={update.error ?? remove.error} prefix="The action item was not changed" />
      </div>
      {writer ? (
        <div className="actions">
          <button
            type="button"
            className="link"
            ref={editButton}
            onClick={startEditing}
            aria-label={`Edit ${item.title}`}
          >
            Edit
          </button>
          <button
            type="button"
            className="link"
            disabled={remove.isPending}
            onClick={confirmDelete}
            aria-label={`Delete ${item.title}`}
          >
            Delete
          </button>
        </div>
      ) : null}
    </li>
  );
}
