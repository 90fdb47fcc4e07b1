import { useInfiniteQuery, useMutation, useQueryClient } from '@tanstack/react-query';
import { Link } from 'react-router';
import { ErrorMessage } from '../../components/ErrorMessage';
import { TableScroll } from '../../components/TableScroll';
import { api } from '../../lib/api';
import { formatDueDate, isOverdue, utcToday } from '../../lib/due-dates';
import type { ActionItem, ActionItemStatus } from '../../lib/postmortem-types';
import { canWrite, useMe } from '../../lib/session';
import { useUrlFilters } from '../../lib/url-filters';

/**
 * Every incident's follow-up work in one list (docs/api.md#post-mortems), overdue first, so a team
 * review can walk down it. Filters live in the URL: `?owner=me`, `?status=done`.
 */
export function ActionItemsPage() {
  const me = useMe();
  const { filter, setFilter } = useUrlFilters();
  const status: ActionItemStatus = filter('status') === 'done' ? 'done' : 'open';
  // An API key is nobody: "mine" needs a person.
  const mine = filter('owner') === 'me' && Boolean(me.data?.user);
  const query = { status, ...(mine ? { owner_id: 'me' } : {}) };
  const items = useInfiniteQuery({
    queryKey: ['action-items', 'all', query],
    queryFn: ({ pageParam }) => api.allActionItems({ ...query, cursor: pageParam ?? undefined }),
    initialPageParam: null as string | null,
    getNextPageParam: (page) => page.next_cursor,
  });
  const list = items.data?.pages.flatMap((page) => page.items) ?? [];
  const today = utcToday();
  const overdueCount = list.filter((item) => isOverdue(item, today)).length;
  return (
    <>
      <div className="page-head">
        <div>
          <h1>Action items</h1>
          <p className="subtle small">
            Follow-up work from post-mortems, across incidents; overdue items first. Due dates are UTC days:
            an item is overdue once its day has ended in UTC.
            {overdueCount > 0 ? <strong className="overdue-mark"> {overdueCount} overdue.</strong> : null}
          </p>
        </div>
        <div className="actions">
          {me.data?.user ? (
            <label className="inline">
              Owner
              <select
                value={mine ? 'me' : ''}
                onChange={(e) => setFilter('owner', e.target.value)}
                style={{ width: 'auto' }}
              >
                <option value="">Everyone</option>
                <option value="me">Mine</option>
              </select>
            </label>
          ) : null}
          <label className="inline">
            Status
            <select
              value={status}
              onChange={(e) => setFilter('status', e.target.value === 'done' ? 'done' : '')}
              style={{ width: 'auto' }}
            >
              <option value="open">Open</option>
              <option value="done">Done</option>
            </select>
          </label>
        </div>
      </div>
      <ErrorMessage error={items.error} prefix="Could not load the action items" />
      <TableScroll label="Action items" className="card" style={{ padding: 0 }}>
        <table aria-label="Action items">
          <thead>
            <tr>
              <th>Action item</th>
              <th>Incident</th>
              <th>Owner</th>
              <th>Due</th>
              <th>Status</th>
            </tr>
          </thead>
          <tbody>
            {list.map((item) => (
              <ActionItemListRow key={item.id} item={item} today={today} />
            ))}
          </tbody>
        </table>
        {items.isPending ? <p className="empty">Loading…</p> : null}
        {items.data && list.length === 0 ? (
          <p className="empty">{status === 'open' ? 'No open action items.' : 'No done action items.'}</p>
        ) : null}
      </TableScroll>
      {items.hasNextPage ? (
        <p className="actions">
          <button type="button" disabled={items.isFetchingNextPage} onClick={() => items.fetchNextPage()}>
            {items.isFetchingNextPage ? 'Loading…' : 'Show more'}
          </button>
        </p>
      ) : null}
    </>
  );
}

function ActionItemListRow({ item, today }: { item: ActionItem; today: string }) {
  const me = useMe();
  const queryClient = useQueryClient();
  const toggle = useMutation({
    mutationFn: () =>
      api.updateActionItem(item.incident_id, item.id, { status: item.status === 'open' ? 'done' : 'open' }),
    onSuccess: () => queryClient.invalidateQueries({ queryKey: ['action-items'] }),
  });
  const overdue = isOverdue(item, today);
  return (
    <tr className={overdue ? 'overdue' : undefined}>
      <td style={{ fontWeight: 600 }}>
        {item.title}
        <ErrorMessage error={toggle.error} prefix="Not changed" />
      </td>
      <td>
        <Link to={`/incidents/${item.incident_number}/postmortem`}>
          #{item.incident_number} {item.incident_title}
        </Link>
      </td>
      <td>{item.owner?.name ?? <span className="subtle">Nobody</span>}</td>
      <td>
        {item.due_date ? formatDueDate(item.due_date) : <span className="subtle">—</span>}
        {overdue ? <strong className="badge plain overdue-badge">Overdue</strong> : null}
      </td>
      <td>
        <span className="actions" style={{ flexWrap: 'nowrap' }}>
          {item.status === 'done' ? 'Done' : 'Open'}
          {canWrite(me.data, 'member') ? (
            <button
              type="button"
              className="link"
              disabled={toggle.isPending}
              onClick={() => toggle.mutate()}
              aria-label={`${item.status === 'open' ? 'Mark done' : 'Reopen'}: ${item.title}`}
            >
              {item.status === 'open' ? 'Mark done' : 'Reopen'}
            </button>
          ) : null}
        </span>
      </td>
    </tr>
  );
}
