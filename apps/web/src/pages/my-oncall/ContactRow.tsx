import { useMutation, useQueryClient } from '@tanstack/react-query';
import { type FormEvent, useState } from 'react';
import { ErrorMessage } from '../../components/ErrorMessage';
import { api } from '../../lib/api';
import { type ContactMethod, methodLabel } from '../../lib/oncall-types';
import { describeContact } from './rules-form';

/** One contact: its state, and the verify / test / delete actions that apply to it. */
export function ContactRow({ contact }: { contact: ContactMethod }) {
  const queryClient = useQueryClient();
  const [code, setCode] = useState('');
  const [said, setSaid] = useState('');
  const name = `${methodLabel[contact.type]} ${describeContact(contact)}`;
  const refresh = () => queryClient.invalidateQueries({ queryKey: ['contact-methods'] });
  const sendCode = useMutation({
    mutationFn: () => api.sendContactCode(contact.id),
    onSuccess: () => setSaid('A code is on its way; it is valid for 10 minutes.'),
  });
  const verify = useMutation({
    mutationFn: () => api.verifyContactMethod(contact.id, code.trim()),
    onSuccess: async () => {
      setCode('');
      setSaid('Verified.');
      await refresh();
    },
  });
  const test = useMutation({
    mutationFn: () => api.testContactMethod(contact.id),
    onSuccess: () => setSaid('Test sent: check that it arrived.'),
  });
  const remove = useMutation({ mutationFn: () => api.deleteContactMethod(contact.id), onSuccess: refresh });
  const verified = contact.verified;
  const submitCode = (event: FormEvent) => {
    event.preventDefault();
    verify.mutate();
  };
  return (
    <li className="stack">
      <div className="actions">
        <span className="edit-list-name">
          <strong>{methodLabel[contact.type]}</strong> {describeContact(contact)}
        </span>
        <span className={`badge plain ${verified ? 'hb-up' : 'hb-waiting'}`}>
          {verified ? 'Verified' : 'Not verified'}
        </span>
      </div>
      <div className="actions">
        {!verified && contact.type !== 'push' ? (
          <button
            type="button"
            disabled={sendCode.isPending}
            aria-label={`Send code to ${name}`}
            onClick={() => sendCode.mutate()}
          >
            Send code
          </button>
        ) : null}
        {verified ? (
          <button
            type="button"
            disabled={test.isPending}
            aria-label={`Test ${name}`}
            onClick={() => test.mutate()}
          >
            Test
          </button>
        ) : null}
        <button
          type="button"
          className="danger"
          disabled={remove.isPending}
          aria-label={`Delete ${name}`}
          onClick={() => {
            if (window.confirm(`Delete ${name}? Rules that name it stop using it.`)) remove.mutate();
          }}
        >
          Delete
        </button>
      </div>
      {!verified && contact.type !== 'push' ? (
        <form
          className="actions"
          onSubmit={submitCode}
          aria-label={`Verify ${name}`}
          style={{ alignItems: 'end' }}
        >
          <label>
            Code for {describeContact(contact)}
            <input
              inputMode="numeric"
              autoComplete="one-time-code"
              pattern="[0-9]*"
              maxLength={12}
              value={code}
              onChange={(e) => setCode(e.target.value)}
            />
          </label>
          <button type="submit" disabled={verify.isPending || !code.trim()}>
            Verify
          </button>
        </form>
      ) : null}
      {contact.disabled_reason ? (
        <p className="alert-box alert-warn small">Not used any more: {contact.disabled_reason}</p>
      ) : null}
      <p role="status" className="small">
        {said}
      </p>
      <ErrorMessage
        error={sendCode.error ?? verify.error ?? test.error ?? remove.error}
        prefix={`${methodLabel[contact.type]} ${describeContact(contact)}`}
      />
    </li>
  );
}
