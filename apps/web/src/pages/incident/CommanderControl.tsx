import type { Incident } from '@firebreak/schema';
import { useQuery } from '@tanstack/react-query';
import { useState } from 'react';
import { ErrorMessage } from '../../components/ErrorMessage';
import { api } from '../../lib/api';
import { useMe } from '../../lib/session';
import { useIncidentChange } from './use-incident-change';

/**
 * "Make me commander" for the person at the keyboard (the usual case mid-outage), and a pick from the
 * active users for handing over; clearing is possible too. API keys have no user, so only the pick.
 */
export function CommanderControl({ incident }: { incident: Incident }) {
  const me = useMe();
  const users = useQuery({ queryKey: ['users'], queryFn: api.users, staleTime: 60_000 });
  const change = useIncidentChange(incident);
  const [chosen, setChosen] = useState('');
  const myId = me.data?.user?.id;
  const active = users.data?.users.filter((user) => user.active) ?? [];

  return (
    <div className="stack" style={{ gap: '0.5rem' }}>
      <div className="actions">
        {myId && incident.commander?.id !== myId ? (
          <button
            type="button"
            disabled={change.isPending}
            onClick={() => change.mutate({ commander_id: myId })}
          >
            Make me commander
          </button>
        ) : null}
        <label className="inline">
          <span>Set commander</span>
          <select
            value={chosen}
            onChange={(e) => setChosen(e.target.value)}
            style={{ width: 'auto', maxWidth: '14rem' }}
          >
            <option value="">Choose a person…</option>
            {active.map((user) => (
              <option key={user.id} value={user.id}>
                {user.name} ({user.email})
              </option>
            ))}
          </select>
        </label>
        <button
          type="button"
          disabled={!chosen || change.isPending}
          onClick={() => change.mutate({ commander_id: chosen }, { onSuccess: () => setChosen('') })}
        >
          Assign
        </button>
        {incident.commander ? (
          <button type="button" className="link" onClick={() => change.mutate({ commander_id: null })}>
            Clear commander
          </button>
        ) : null}
      </div>
      <ErrorMessage error={users.error} prefix="Could not load users" />
    </div>
  );
}
