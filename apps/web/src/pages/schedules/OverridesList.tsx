import type { Schedule } from '@firebreak/schema';
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { useState } from 'react';
import { ErrorMessage } from '../../components/ErrorMessage';
import { TableScroll } from '../../components/TableScroll';
import { api } from '../../lib/api';
import { formatDateTime } from '../../lib/format';
import { isMissingEndpoint } from '../../lib/missing';
import type { ScheduleOverride } from '../../lib/oncall-types';
import { canWrite, useMe } from '../../lib/session';
import { COVER_DAYS, coverWindow } from './cover-window';

/** Overrides in the next two weeks; their makers (and admins) may delete them. */
export function OverridesList({ schedule }: { schedule: Schedule }) {
  const me = useMe();
  const myId = me.data?.user?.id ?? null;
  const admin = canWrite(me.data, 'admin');
  const [span] = useState(() => coverWindow(new Date()));
  const users = useQuery({ queryKey: ['users'], queryFn: api.users });
  const queryClient = useQueryClient();
  const overrides = useQuery({
    queryKey: ['overrides', schedule.id, span.from.toISOString()],
    queryFn: () => api.overrides(schedule.id, span.from, span.to),
    retry: (count, error) => !isMissingEndpoint(error) && count < 2,
  });
  const remove = useMutation({
    mutationFn: (override: ScheduleOverride) => api.deleteOverride(schedule.id, override.id),
    onSuccess: async () => {
      await queryClient.invalidateQueries({ queryKey: ['overrides', schedule.id] });
      await queryClient.invalidateQueries({ queryKey: ['schedule-shifts', schedule.id] });
      await queryClient.invalidateQueries({ queryKey: ['on-call', schedule.id] });
    },
  });
  const nameOf = (id: string | null | undefined) =>
    id ? (users.data?.users.find((u) => u.id === id)?.name ?? 'a former user') : 'Whoever is on call';
  // Your own is one you made (an imported one has no maker, so only admins remove it).
  const mayDelete = (o: ScheduleOverride) => admin || (myId !== null && o.created_by === myId);
  const list = overrides.data?.overrides ?? [];
  return (
    <section className="card stack" aria-labelledby="overrides-heading">
      <h2 id="overrides-heading">Overrides in the next {COVER_DAYS} days</h2>
      {isMissingEndpoint(overrides.error) ? (
        <p className="alert-box alert-info">This server does not support overrides.</p>
      ) : (
        <ErrorMessage error={overrides.error} prefix="Could not load the overrides" />
      )}
      <ErrorMessage error={remove.error} prefix="The override was not deleted" />
      {overrides.data ? (
        <TableScroll label={`Overrides of ${schedule.name}`}>
          <table aria-label={`Overrides of ${schedule.name}`}>
            <thead>
              <tr>
                <th>On call</th>
                <th>In place of</th>
                <th>From</th>
                <th>Until</th>
                <th>Actions</th>
              </tr>
            </thead>
            <tbody>
              {list.map((override) => {
                const who = override.user.name;
                return (
                  <tr key={override.id}>
                    <td>{who}</td>
                    <td>{nameOf(override.replaces_user_id)}</td>
                    <td>{formatDateTime(override.starts_at)}</td>
                    <td>{formatDateTime(override.ends_at)}</td>
                    <td>
                      {mayDelete(override) ? (
                        <button
                          type="button"
                          className="danger"
                          disabled={remove.isPending}
                          aria-label={`Delete the override of ${who} from ${formatDateTime(override.starts_at)}`}
                          onClick={() => {
                            if (window.confirm(`Delete the override putting ${who} on call?`))
                              remove.mutate(override);
                          }}
                        >
                          Delete
                        </button>
                      ) : null}
                    </td>
                  </tr>
                );
              })}
            </tbody>
          </table>
          {list.length === 0 ? <p className="empty">No overrides.</p> : null}
        </TableScroll>
      ) : null}
    </section>
  );
}
