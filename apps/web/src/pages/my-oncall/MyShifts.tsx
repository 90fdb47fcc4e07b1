import { useQuery } from '@tanstack/react-query';
import { useState } from 'react';
import { ErrorMessage } from '../../components/ErrorMessage';
import { TableScroll } from '../../components/TableScroll';
import { api } from '../../lib/api';
import { formatDateTime, formatRelative } from '../../lib/format';
import { isMissingEndpoint } from '../../lib/missing';
import { COVER_DAYS, coverWindow } from '../schedules/cover-window';

/** The signed-in person's final shifts in every schedule, overrides included. */
export function MyShifts() {
  const [span] = useState(() => coverWindow(new Date()));
  const shifts = useQuery({
    queryKey: ['my-shifts', span.from.toISOString()],
    queryFn: () => api.myShifts(span.from, span.to),
    retry: (count, error) => !isMissingEndpoint(error) && count < 2,
  });
  const schedules = useQuery({ queryKey: ['schedules'], queryFn: api.schedules });
  const scheduleName = (id: string) =>
    schedules.data?.schedules.find((s) => s.id === id)?.name ?? 'A schedule';
  const list = shifts.data?.shifts ?? [];
  return (
    <section className="card stack" aria-labelledby="my-shifts-heading">
      <h2 id="my-shifts-heading">My next shifts</h2>
      {isMissingEndpoint(shifts.error) ? (
        <p className="alert-box alert-info">This server does not list personal shifts.</p>
      ) : (
        <ErrorMessage error={shifts.error} prefix="Could not load your shifts" />
      )}
      {shifts.data ? (
        <TableScroll label="My next shifts">
          <table aria-label="My next shifts">
            <thead>
              <tr>
                <th>Schedule</th>
                <th>From</th>
                <th>Until</th>
                <th>Why</th>
              </tr>
            </thead>
            <tbody>
              {list.map((shift) => (
                <tr key={`${shift.schedule_id}-${shift.starts_at}`}>
                  <td>{scheduleName(shift.schedule_id)}</td>
                  <td title={formatRelative(shift.starts_at)}>{formatDateTime(shift.starts_at)}</td>
                  <td>{formatDateTime(shift.ends_at)}</td>
                  <td className="subtle">
                    {shift.source === 'override' ? 'Covering' : (shift.layer_name ?? 'Rotation')}
                  </td>
                </tr>
              ))}
            </tbody>
          </table>
          {list.length === 0 ? (
            <p className="empty">You are not on call in the next {COVER_DAYS} days.</p>
          ) : null}
        </TableScroll>
      ) : null}
    </section>
  );
}
