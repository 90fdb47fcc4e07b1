import type { Schedule } from '@firebreak/schema';
import { useQuery } from '@tanstack/react-query';
import { useMemo } from 'react';
import { Link } from 'react-router';
import { ErrorMessage } from '../../components/ErrorMessage';
import { TableScroll } from '../../components/TableScroll';
import { api } from '../../lib/api';
import { formatDateTime } from '../../lib/format';
import { colourOf, segmentsInWindow, shiftsOf } from './shift-window';

const WEEK_MS = 7 * 86_400_000;

/** `linked`: in the list, the name opens the schedule's own page. */
export function ScheduleCard({ schedule, linked = false }: { schedule: Schedule; linked?: boolean }) {
  const onCall = useQuery({
    queryKey: ['on-call', schedule.id],
    queryFn: () => api.onCall(schedule.id),
    refetchInterval: 60_000,
  });
  const { shifts, segments, from, to, problem } = useMemo(() => {
    const from = new Date();
    const to = new Date(from.getTime() + WEEK_MS);
    try {
      const shifts = shiftsOf(schedule, from, 60);
      return {
        shifts: shifts.slice(0, 5),
        segments: segmentsInWindow(shifts, from, to),
        from,
        to,
        problem: null,
      };
    } catch (error) {
      return { shifts: [], segments: [], from, to, problem: error };
    }
  }, [schedule]);

  return (
    <section className="card stack" aria-label={`Schedule ${schedule.name}`}>
      <div className="page-head" style={{ marginBottom: 0 }}>
        <div>
          <h2 style={{ marginBottom: 0 }}>
            {linked ? (
              <Link className="row-link" to={`/schedules/${schedule.id}`}>
                {schedule.name}
              </Link>
            ) : (
              schedule.name
            )}
          </h2>
          <span className="subtle small">
            {schedule.timezone} · {schedule.layers.length} layer{schedule.layers.length === 1 ? '' : 's'}
          </span>
        </div>
        <div>
          <div className="subtle small">On call now</div>
          <strong data-testid="on-call-now">
            {onCall.data ? onCall.data.users.map((u) => u.name).join(', ') || 'Nobody' : '…'}
          </strong>
        </div>
      </div>
      <ErrorMessage error={onCall.error} />
      <ErrorMessage error={problem} prefix="Cannot draw this schedule" />
      <div>
        {/* Drawn in the browser from the layers alone; the shifts list on the schedule's page is final. */}
        <div className="subtle small">Rotation (before overrides and unavailability)</div>
        <div
          className="shift-bar"
          role="img"
          aria-label={`Rotation, next 7 days (before overrides and unavailability): ${segments.map((s) => `${s.name} from ${formatDateTime(s.start.toISOString())}`).join('; ') || 'nobody on call'}`}
        >
          {segments.map((segment) => (
            <div
              key={segment.start.toISOString()}
              className="shift-seg"
              style={{
                left: `${segment.left}%`,
                width: `${segment.width}%`,
                background: colourOf(segment.name),
              }}
              title={`${segment.name}: ${formatDateTime(segment.start.toISOString())} – ${formatDateTime(segment.end.toISOString())}`}
            >
              {segment.name}
            </div>
          ))}
        </div>
        <div className="shift-axis" aria-hidden="true">
          <span>now</span>
          <span>+{Math.round((to.getTime() - from.getTime()) / 86_400_000 / 2)} days</span>
          <span>+7 days</span>
        </div>
      </div>
      <TableScroll label={`Next rotation turns of ${schedule.name}`}>
        <table aria-label={`Next rotation turns of ${schedule.name} (before overrides and unavailability)`}>
          <thead>
            <tr>
              <th>Who</th>
              <th>From</th>
              <th>Until</th>
              <th>Layer</th>
            </tr>
          </thead>
          <tbody>
            {shifts.map((shift) => (
              <tr key={`${shift.layer}-${shift.start.toISOString()}`}>
                <td>{shift.name}</td>
                <td>{formatDateTime(shift.start.toISOString())}</td>
                <td>{formatDateTime(shift.end.toISOString())}</td>
                <td className="subtle">{shift.layer}</td>
              </tr>
            ))}
          </tbody>
        </table>
        {shifts.length === 0 && !problem ? <p className="empty">No shifts ahead.</p> : null}
      </TableScroll>
    </section>
  );
}
