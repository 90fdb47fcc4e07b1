import { useQuery } from '@tanstack/react-query';
import { useRef, useState } from 'react';
import { useNavigate } from 'react-router';
import { ErrorMessage } from '../../components/ErrorMessage';
import { api } from '../../lib/api';
import { useFocusOnClose } from '../../lib/focus';
import { canWrite, useMe } from '../../lib/session';
import { ScheduleCard } from './ScheduleCard';
import { ScheduleEditor } from './ScheduleEditor';

export function SchedulesPage() {
  const me = useMe();
  const admin = canWrite(me.data, 'admin');
  const navigate = useNavigate();
  const schedules = useQuery({ queryKey: ['schedules'], queryFn: api.schedules });
  const [creating, setCreating] = useState(false);
  const newButton = useRef<HTMLButtonElement>(null);
  useFocusOnClose(creating, () => newButton.current);
  return (
    <>
      <div className="page-head">
        <div>
          <h1>Schedules</h1>
          <p className="subtle small">
            Who is on call now, the next shifts, and the coming week at a glance. Open a schedule to cover a
            shift.
          </p>
        </div>
        {admin && !creating ? (
          <button ref={newButton} type="button" className="primary" onClick={() => setCreating(true)}>
            New schedule
          </button>
        ) : null}
      </div>
      {creating ? (
        <ScheduleEditor
          schedule={null}
          onClose={() => setCreating(false)}
          onSaved={(saved) => navigate(`/schedules/${saved.id}`)}
        />
      ) : null}
      <ErrorMessage error={schedules.error} prefix="Could not load schedules" />
      {schedules.data?.schedules.length === 0 ? (
        <p className="card empty">
          No schedules yet.{' '}
          {admin
            ? 'Create one with New schedule, or import them.'
            : 'An admin creates them, or imports them.'}
        </p>
      ) : null}
      <div className="stack">
        {schedules.data?.schedules.map((schedule) => (
          <ScheduleCard key={schedule.id} schedule={schedule} linked />
        ))}
      </div>
    </>
  );
}
