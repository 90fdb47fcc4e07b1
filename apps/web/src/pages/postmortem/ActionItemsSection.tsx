import { useQuery } from '@tanstack/react-query';
import { ErrorMessage } from '../../components/ErrorMessage';
import { api } from '../../lib/api';
import { canWrite, useMe } from '../../lib/session';
import { ActionItemRow } from './ActionItemRow';
import { AddActionItemForm } from './AddActionItemForm';

/** What the team will do so this does not happen again: each item with an owner and a due date. */
export function ActionItemsSection({ incidentId }: { incidentId: string }) {
  const me = useMe();
  const writer = canWrite(me.data, 'member');
  const items = useQuery({
    queryKey: ['action-items', incidentId],
    queryFn: () => api.actionItems(incidentId),
  });
  const users = useQuery({ queryKey: ['users'], queryFn: api.users, staleTime: 60_000, enabled: writer });
  const people = users.data?.users.filter((user) => user.active) ?? [];
  const list = items.data?.items ?? [];
  return (
    <section className="card stack" aria-labelledby="action-items-heading">
      <h2 id="action-items-heading">Action items</h2>
      <ErrorMessage error={items.error} prefix="Could not load the action items" />
      {items.data && list.length === 0 ? <p className="subtle small">No action items yet.</p> : null}
      {list.length > 0 ? (
        <ul className="edit-list action-list" aria-label="Action items of this incident">
          {list.map((item) => (
            <ActionItemRow
              key={item.id}
              incidentId={incidentId}
              item={item}
              people={people}
              writer={writer}
            />
          ))}
        </ul>
      ) : null}
      {writer ? <AddActionItemForm incidentId={incidentId} people={people} /> : null}
      <ErrorMessage error={users.error} prefix="Could not load people to own items" />
    </section>
  );
}
