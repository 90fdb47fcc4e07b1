import type { FormEvent, ReactNode } from 'react';
import { ErrorMessage } from './ErrorMessage';

interface Props {
  /** The form's accessible name, e.g. "Edit policy Primary". */
  label: string;
  title: ReactNode;
  onSubmit: (event: FormEvent) => void;
  /** The form's own message or the API's error, shown just above the buttons. */
  error: unknown;
  errorPrefix: string;
  pending: boolean;
  submitLabel: string;
  onCancel: () => void;
  children: ReactNode;
}

/**
 * The card an admin edits one thing in: its title, its fields, then what went wrong and Save / Cancel.
 * The browser validates nothing (`noValidate`) so every message comes from the form's own checks.
 */
export function EditorForm({
  label,
  title,
  onSubmit,
  error,
  errorPrefix,
  pending,
  submitLabel,
  onCancel,
  children,
}: Props) {
  return (
    <form
      className="card form"
      onSubmit={onSubmit}
      aria-label={label}
      style={{ marginBottom: '1rem' }}
      noValidate
    >
      <h2>{title}</h2>
      {children}
      <ErrorMessage error={error} prefix={errorPrefix} />
      <div className="actions">
        <button type="submit" className="primary" disabled={pending}>
          {pending ? 'Saving…' : submitLabel}
        </button>
        <button type="button" onClick={onCancel}>
          Cancel
        </button>
      </div>
    </form>
  );
}
