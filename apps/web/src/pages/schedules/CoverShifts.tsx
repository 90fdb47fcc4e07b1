import type { Schedule } from '@firebreak/schema';
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { useState } from 'react';
import { ErrorMessage } from '../../components/ErrorMessage';
import { TableScroll } from '../../components/TableScroll';
import { api } from '../../lib/api';
import { formatDateTime } from '../../lib/format';
import { isMissingEndpoint } from '../../lib/missing';
import type { FinalShift } from '../../lib/oncall-types';
import { canWrite, useMe } from '../../lib/session';
import { COVER_DAYS, coverSpanOf, coverWindow } from './cover-window';
import { coverNote } from './unavailability-form';

/**
 * The schedule's final shifts (unavailability and overrides applied, as the server pages; a turn given
 * to the next person because its own is away says whom it covers for) for the next two weeks, each
 * with "Cover" for a member or admin: an override that puts them on call for that span, from now on,
 * in place of the person listed. A shift over since the list loaded cannot be covered.
 */
export function CoverShifts({ schedule }: { schedule: Schedule }) {
  const me = useMe();
  const myId = me.data?.user?.id ?? null;
  const mayCover = canWrite(me.data, 'member') && myId !== null;
  const [span] = useState(() => coverWindow(new Date()));
  const queryClient = useQueryClient();
  const shifts = useQuery({
    queryKey: ['schedule-shifts', schedule.id, span.from.toISOString()],
    queryFn: () => api.scheduleShifts(schedule.id, span.from, span.to),
    retry: (count, error) => !isMissingEndpoint(error) && count < 2,
  });
  const [said, setSaid] = useState('');
  const cover = useMutation({
    mutationFn: async (shift: FinalShift) => {
      const span = coverSpanOf(shift, new Date());
      if (!span) throw new Error('This shift is over.');
      await api.createOverride(schedule.id, {
        user_id: myId!,
        ...span,
        ...(shift.user.id ? { replaces_user_id: shift.user.id } : {}),
      });
      return span;
    },
    onSuccess: async (span, shift) => {
      setSaid(
        `You cover ${shift.user.name} from ${formatDateTime(span.starts_at)} until ${formatDateTime(span.ends_at)}.`,
      );
      await queryClient.invalidateQueries({ queryKey: ['schedule-shifts', schedule.id] });
      await queryClient.invalidateQueries({ queryKey: ['overrides', schedule.id] });
      await queryClient.invalidateQueries({ queryKey: ['on-call', schedule.id] });
    },
  });
  const list = shifts.data?.shifts ?? [];
  return (
    <section className="card stack" aria-labelledby="cover-heading">
      <h2 id="cover-heading">Shifts in the next {COVER_DAYS} days</h2>
      <p className="subtle small">
        Who will be paged, overrides included.{' '}
        {mayCover ? 'Cover a shift to be paged in that person’s place for it.' : null}
      </p>
      {isMissingEndpoint(shifts.error) ? (
        <p className="alert-box alert-info">
          This server does not list final shifts, so shifts cannot be covered here.
        </p>
      ) : (
        <ErrorMessage error={shifts.error} prefix="Could not load the shifts" />
      )}
      <ErrorMessage error={cover.error} prefix="The shift was not covered" />
      <p role="status" className="small">
        {said}
      </p>
      {shifts.data ? (
        <TableScroll label={`Final shifts of ${schedule.name}`}>
          <table aria-label={`Final shifts of ${schedule.name}`}>
            <thead>
              <tr>
                <th>Who</th>
                <th>From</th>
                <th>Until</th>
                <th>Why</th>
                {mayCover ? <th>Cover</th> : null}
              </tr>
            </thead>
            <tbody>
              {list.map((shift) => (
                <tr key={`${shift.starts_at}-${shift.user.name}`}>
                  <td>{shift.user.name}</td>
                  <td>{formatDateTime(shift.starts_at)}</td>
                  <td>{formatDateTime(shift.ends_at)}</td>
                  <td className="subtle">
                    {shift.source === 'override' ? 'Override' : (shift.layer_name ?? 'Rotation')}
                    {coverNote(shift) ? `, ${coverNote(shift)}` : null}
                  </td>
                  {mayCover ? (
                    <td>
                      {shift.user.id === myId ? (
                        <span className="subtle small">Yours</span>
                      ) : (
                        <button
                          type="button"
                          disabled={cover.isPending || !coverSpanOf(shift, new Date())}
                          aria-label={`Cover ${shift.user.name} from ${formatDateTime(shift.starts_at)}`}
                          onClick={() => cover.mutate(shift)}
                        >
                          Cover
                        </button>
                      )}
                    </td>
                  ) : null}
                </tr>
              ))}
            </tbody>
          </table>
          {list.length === 0 ? (
            <p className="empty">Nobody is on call in the next {COVER_DAYS} days.</p>
          ) : null}
        </TableScroll>
      ) : null}
    </section>
  );
}
