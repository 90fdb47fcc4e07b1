import { type FormEvent, useState } from 'react';

/** What an editor's form turns into: the input to send, or what the operator has to correct first. */
export type Validated<Input> = { input: Input } | { error: string };

/**
 * An editor's submit: a form that does not validate shows its message and sends nothing; one that does
 * clears the message and goes to `send`. The message is the form's own, shown where the API's error is.
 */
export function useValidatedSubmit<Input>(
  validate: () => Validated<Input>,
  send: (input: Input) => void,
): { formError: string | null; submit: (event: FormEvent) => void } {
  const [formError, setFormError] = useState<string | null>(null);
  const submit = (event: FormEvent) => {
    event.preventDefault();
    const made = validate();
    if ('error' in made) {
      setFormError(made.error);
      return;
    }
    setFormError(null);
    send(made.input);
  };
  return { formError, submit };
}
