import { useQuery } from '@tanstack/react-query';
import { useRef, useState } from 'react';
import { Link, useParams } from 'react-router';
import { ErrorMessage } from '../../components/ErrorMessage';
import { api } from '../../lib/api';
import { useFocusOnClose } from '../../lib/focus';
import { canWrite, useMe } from '../../lib/session';
import { CoverShifts } from './CoverShifts';
import { OverridesList } from './OverridesList';
import { ScheduleCard } from './ScheduleCard';
import { ScheduleEditor } from './ScheduleEditor';
import { UnavailabilityPanel } from './UnavailabilityPanel';

/** One schedule: its picture, the final shifts to cover, the overrides already made, who is away. */
export function SchedulePage() {
  const { id = '' } = useParams();
  const me = useMe();
  const admin = canWrite(me.data, 'admin');
  const schedule = useQuery({ queryKey: ['schedule', id], queryFn: () => api.schedule(id) });
  const [editing, setEditing] = useState(false);
  const editButton = useRef<HTMLButtonElement>(null);
  useFocusOnClose(editing, () => editButton.current);
  return (
    <>
      <p>
        <Link to="/schedules">← Schedules</Link>
      </p>
      <div className="page-head">
        <h1>{schedule.data?.name ?? 'Schedule'}</h1>
        {admin && schedule.data && !editing ? (
          <button ref={editButton} type="button" className="primary" onClick={() => setEditing(true)}>
            Edit schedule
          </button>
        ) : null}
      </div>
      <ErrorMessage error={schedule.error} prefix="Could not load the schedule" />
      {schedule.data && editing ? (
        <ScheduleEditor schedule={schedule.data} onClose={() => setEditing(false)} />
      ) : null}
      {schedule.data ? (
        <div className="stack">
          <ScheduleCard key={schedule.data.updated_at} schedule={schedule.data} />
          <CoverShifts schedule={schedule.data} />
          <OverridesList schedule={schedule.data} />
          <UnavailabilityPanel schedule={schedule.data} />
        </div>
      ) : null}
    </>
  );
}
