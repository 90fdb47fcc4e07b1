import { useQuery } from '@tanstack/react-query';
import { ErrorMessage } from '../../components/ErrorMessage';
import { api } from '../../lib/api';
import { ScheduleCard } from './ScheduleCard';

export function SchedulesPage() {
  const schedules = useQuery({ queryKey: ['schedules'], queryFn: api.schedules });
  return (
    <>
      <div className="page-head">
        <div>
          <h1>Schedules</h1>
          <p className="subtle small">
            Who is on call now, the next shifts, and the coming week at a glance.
          </p>
        </div>
      </div>
      <ErrorMessage error={schedules.error} prefix="Could not load schedules" />
      {schedules.data?.schedules.length === 0 ? (
        <p className="card empty">
          No schedules yet. Create them through the API or import them from Grafana OnCall.
        </p>
      ) : null}
      <div className="stack">
        {schedules.data?.schedules.map((schedule) => (
          <ScheduleCard key={schedule.id} schedule={schedule} />
        ))}
      </div>
    </>
  );
}
