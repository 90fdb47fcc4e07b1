import type { IncidentStatus } from '@firebreak/schema';
import { useQueries } from '@tanstack/react-query';
import { api } from '../lib/api';
import { statuses, statusLabel } from '../lib/labels';
import { COUNT_CAP, COUNTS_INTERVAL_MS } from '../lib/live';

/**
 * The status filter, each with its count. The API has no count endpoint, so a count is the length of
 * a list of up to 1000 (shown as "1000+" beyond that).
 */
export function StatusTabs({
  selected,
  onSelect,
}: {
  selected: IncidentStatus | '';
  onSelect: (status: IncidentStatus | '') => void;
}) {
  const counts = useQueries({
    queries: statuses.map((status) => ({
      queryKey: ['incident-counts', status],
      queryFn: () => api.incidents({ status, limit: COUNT_CAP }),
      refetchInterval: COUNTS_INTERVAL_MS,
      select: (data: Awaited<ReturnType<typeof api.incidents>>) =>
        data.next_cursor ? `${COUNT_CAP}+` : String(data.incidents.length),
    })),
  });
  return (
    <fieldset className="tabs plain-fieldset">
      <legend className="visually-hidden">Filter by status</legend>
      <button type="button" className="tab" aria-pressed={selected === ''} onClick={() => onSelect('')}>
        All
      </button>
      {statuses.map((status, index) => (
        <button
          key={status}
          type="button"
          className="tab"
          aria-pressed={selected === status}
          onClick={() => onSelect(status)}
        >
          {statusLabel[status]}{' '}
          <span className="count" data-testid={`count-${status}`}>
            {counts[index]?.data ?? '…'}
          </span>
        </button>
      ))}
    </fieldset>
  );
}
