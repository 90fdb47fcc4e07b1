import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { type FormEvent, useState } from 'react';
import { ErrorMessage } from '../../components/ErrorMessage';
import { api } from '../../lib/api';
import { isMissingEndpoint } from '../../lib/missing';
import { addressTypes, methodLabel, type NotificationMethod } from '../../lib/oncall-types';
import { ContactRow } from './ContactRow';
import { addressField } from './contact-address';
import { PushButton } from './PushButton';

interface Props {
  methods: Set<NotificationMethod>;
  methodsKnown: boolean;
  methodsError: unknown;
  vapidPublicKey: string | null;
}

/** The person's e-mail addresses, phone numbers and push-enabled browsers; each verified before use. */
export function ContactMethodsSection({ methods, methodsKnown, methodsError, vapidPublicKey }: Props) {
  const queryClient = useQueryClient();
  const contacts = useQuery({
    queryKey: ['contact-methods'],
    queryFn: api.contactMethods,
    retry: (count, error) => !isMissingEndpoint(error) && count < 2,
  });
  const [type, setType] = useState<(typeof addressTypes)[number]>('email');
  const [address, setAddress] = useState('');
  const add = useMutation({
    mutationFn: api.addContactMethod,
    onSuccess: async () => {
      setAddress('');
      await queryClient.invalidateQueries({ queryKey: ['contact-methods'] });
    },
  });
  const submit = (event: FormEvent) => {
    event.preventDefault();
    add.mutate({ type, address: address.trim() });
  };
  if (isMissingEndpoint(contacts.error)) {
    return (
      <section className="card stack" aria-labelledby="contacts-heading">
        <h2 id="contacts-heading">Contact methods</h2>
        <p className="alert-box alert-info">
          This server has no personal contact methods: pages reach you as a chat message.
        </p>
      </section>
    );
  }
  const list = contacts.data?.contact_methods ?? [];
  const field = addressField(type);
  const methodsUnknown = isMissingEndpoint(methodsError);
  return (
    <section className="card stack" aria-labelledby="contacts-heading">
      <h2 id="contacts-heading">Contact methods</h2>
      <p className="subtle small">
        An address or number is used once it is verified: send yourself a code and type it here. The test
        button sends a test notification through it.
      </p>
      {methodsUnknown ? (
        <p className="alert-box alert-info">
          This server does not say which methods it can send; it refuses a contact it cannot use.
        </p>
      ) : (
        <ErrorMessage error={methodsError} prefix="Could not load this server’s methods" />
      )}
      <ErrorMessage error={contacts.error} prefix="Could not load your contact methods" />
      {contacts.data && list.length === 0 ? <p className="subtle small">No contact methods yet.</p> : null}
      {list.length > 0 ? (
        <ul className="edit-list contact-list" aria-label="My contact methods">
          {list.map((contact) => (
            <ContactRow key={contact.id} contact={contact} />
          ))}
        </ul>
      ) : null}
      <form className="form" onSubmit={submit} aria-label="Add a contact method">
        <div className="form-row">
          <label>
            Kind
            <select value={type} onChange={(e) => setType(e.target.value as (typeof addressTypes)[number])}>
              {addressTypes.map((t) => (
                <option key={t} value={t}>
                  {methodLabel[t]}
                  {methodsKnown && !methods.has(t) ? ' (not set up on this server)' : ''}
                </option>
              ))}
            </select>
          </label>
          <label>
            {field.label} <span className="hint">{field.hint}</span>
            <input
              required
              type={field.inputType}
              inputMode={field.inputMode}
              autoComplete={field.autoComplete}
              value={address}
              onChange={(e) => setAddress(e.target.value)}
            />
          </label>
        </div>
        {type === 'telegram' ? (
          <p className="subtle small">
            Message the bot first (search its @name in Telegram and press Start), or it cannot write to you.
            Your chat id is the number <code>@userinfobot</code> answers when you message it; a group’s id
            starts with a minus. The bot then sends your verification code there.
          </p>
        ) : null}
        <ErrorMessage error={add.error} prefix="The contact was not added" />
        <div className="actions">
          <button type="submit" disabled={add.isPending || !address.trim()}>
            Add contact
          </button>
          {methods.has('push') && vapidPublicKey ? <PushButton vapidPublicKey={vapidPublicKey} /> : null}
        </div>
      </form>
    </section>
  );
}
