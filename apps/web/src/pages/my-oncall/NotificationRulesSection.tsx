import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { useState } from 'react';
import { ErrorMessage } from '../../components/ErrorMessage';
import { api } from '../../lib/api';
import { moveItem, removeAt, replaceAt } from '../../lib/list-edit';
import { isMissingEndpoint } from '../../lib/missing';
import { methodLabel, type NotificationMethod, notificationMethods } from '../../lib/oncall-types';
import {
  contactsFor,
  describeContact,
  MAX_DELAY_MINUTES,
  newRow,
  type RuleRow,
  rowsOf,
  rulesOf,
} from './rules-form';

interface Props {
  methods: Set<NotificationMethod>;
  /** Whether the server said which methods it has; if not, every method is offered. */
  methodsKnown: boolean;
}

/** The ordered list of ways to reach the person when a page comes, saved as a whole. */
export function NotificationRulesSection({ methods, methodsKnown }: Props) {
  const queryClient = useQueryClient();
  const rules = useQuery({
    queryKey: ['notification-rules'],
    queryFn: api.notificationRules,
    retry: (count, error) => !isMissingEndpoint(error) && count < 2,
  });
  const contacts = useQuery({
    queryKey: ['contact-methods'],
    queryFn: api.contactMethods,
    retry: (count, error) => !isMissingEndpoint(error) && count < 2,
  });
  // Null until the person edits: the list shown is then the server's.
  const [edited, setEdited] = useState<RuleRow[] | null>(null);
  const [formError, setFormError] = useState<string | null>(null);
  const [said, setSaid] = useState('');
  const rows = edited ?? (rules.data ? rowsOf(rules.data.rules) : []);
  const edit = (next: RuleRow[]) => {
    setEdited(next);
    setSaid('');
  };
  const save = useMutation({
    mutationFn: api.setNotificationRules,
    onSuccess: async (saved) => {
      queryClient.setQueryData(['notification-rules'], saved);
      setEdited(null);
      setSaid('Your notification rules are saved.');
    },
  });
  const submit = () => {
    const made = rulesOf(rows);
    if ('error' in made) {
      setFormError(made.error);
      return;
    }
    setFormError(null);
    save.mutate(made.rules);
  };
  const offered = (method: NotificationMethod) => !methodsKnown || methods.has(method);

  if (isMissingEndpoint(rules.error)) {
    return (
      <section className="card stack" aria-labelledby="rules-heading">
        <h2 id="rules-heading">Notification rules</h2>
        <p className="alert-box alert-info">
          This server has no personal notification rules: pages reach you as a chat message.
        </p>
      </section>
    );
  }
  const last = rows.length - 1;
  return (
    <section className="card stack" aria-labelledby="rules-heading">
      <h2 id="rules-heading">Notification rules</h2>
      <p className="subtle small">
        When you are paged, each rule runs after its delay, in order, until someone acknowledges. A rule
        without a contact uses every verified contact of its kind.
      </p>
      <ErrorMessage error={rules.error} prefix="Could not load your rules" />
      {rules.data?.default && edited === null ? (
        <p className="subtle small">You have set no rules, so this default applies.</p>
      ) : null}
      {rules.data?.reaches_nothing && edited === null ? (
        <p className="alert-box alert-warn" role="status">
          None of your rules can reach you right now (a contact was removed, disabled or is not verified, or a
          method is not set up here), so pages fall back to a chat message. Add a chat rule or a verified
          contact.
        </p>
      ) : null}
      {rows.length === 0 && rules.data ? (
        <p className="subtle small">No rules: saving this leaves the default, a chat message at once.</p>
      ) : null}
      <ol className="edit-list rule-list" aria-label="My notification rules">
        {rows.map((row, i) => {
          const n = i + 1;
          const choices = contactsFor(row.method, contacts.data?.contact_methods ?? []);
          return (
            <li key={row.key}>
              <div className="form-row">
                <label>
                  Rule {n}: after minutes{' '}
                  {row.method === 'chat' ? <span className="hint">chat goes at once</span> : null}
                  <input
                    type="number"
                    min={0}
                    max={MAX_DELAY_MINUTES}
                    step={1}
                    disabled={row.method === 'chat'}
                    value={row.method === 'chat' ? '0' : row.delayMinutes}
                    onChange={(e) => edit(replaceAt(rows, i, { ...row, delayMinutes: e.target.value }))}
                  />
                </label>
                <label>
                  Rule {n}: method
                  <select
                    value={row.method}
                    onChange={(e) =>
                      edit(
                        replaceAt(rows, i, {
                          ...row,
                          method: e.target.value as NotificationMethod,
                          contactId: '',
                        }),
                      )
                    }
                  >
                    {notificationMethods.map((method) => (
                      <option
                        key={method}
                        value={method}
                        disabled={!offered(method) && method !== row.method}
                      >
                        {methodLabel[method]}
                        {offered(method) ? '' : ' (not set up on this server)'}
                      </option>
                    ))}
                  </select>
                </label>
                {row.method === 'chat' ? null : (
                  <label>
                    Rule {n}: contact
                    <select
                      value={row.contactId}
                      onChange={(e) => edit(replaceAt(rows, i, { ...row, contactId: e.target.value }))}
                    >
                      <option value="">Every verified {methodLabel[row.method].toLowerCase()} contact</option>
                      {choices.map((contact) => (
                        <option key={contact.id} value={contact.id}>
                          {describeContact(contact)}
                        </option>
                      ))}
                    </select>
                  </label>
                )}
              </div>
              <div className="actions">
                <button
                  type="button"
                  disabled={i === 0}
                  aria-label={`Move rule ${n} up`}
                  onClick={() => edit(moveItem(rows, i, -1))}
                >
                  ↑
                </button>
                <button
                  type="button"
                  disabled={i === last}
                  aria-label={`Move rule ${n} down`}
                  onClick={() => edit(moveItem(rows, i, 1))}
                >
                  ↓
                </button>
                <button
                  type="button"
                  className="danger"
                  aria-label={`Remove rule ${n}`}
                  onClick={() => edit(removeAt(rows, i))}
                >
                  Remove
                </button>
              </div>
            </li>
          );
        })}
      </ol>
      <ErrorMessage error={formError ?? save.error} prefix="Your rules were not saved" />
      <p role="status" className="small">
        {said}
      </p>
      <div className="actions">
        <button type="button" disabled={!rules.data} onClick={() => edit([...rows, newRow(rows)])}>
          Add rule
        </button>
        <button
          type="button"
          className="primary"
          disabled={!rules.data || save.isPending || edited === null}
          onClick={submit}
        >
          {save.isPending ? 'Saving…' : 'Save rules'}
        </button>
        {edited ? (
          <button type="button" onClick={() => setEdited(null)}>
            Undo changes
          </button>
        ) : null}
      </div>
    </section>
  );
}
