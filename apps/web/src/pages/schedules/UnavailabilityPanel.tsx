import type { Schedule } from '@firebreak/schema';
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { type FormEvent, useState } from 'react';
import { ErrorMessage } from '../../components/ErrorMessage';
import { TableScroll } from '../../components/TableScroll';
import { type ScheduleUnavailability, unavailabilityApi } from '../../lib/api-unavailability';
import { formatDateTime } from '../../lib/format';
import { isMissingEndpoint } from '../../lib/missing';
import { canWrite, useMe } from '../../lib/session';
import {
  emptyUnavailabilityForm,
  layerPeople,
  UNAVAILABILITY_LIST_DAYS,
  type UnavailabilityForm,
  unavailabilityInputOf,
} from './unavailability-form';

/**
 * Upcoming unavailability (docs/schedules.md#unavailability): while someone is away, their turns go to
 * the next available person of the layer. An admin may mark anyone who takes part in a layer; a member
 * only themselves, and removes only their own ranges.
 */
export function UnavailabilityPanel({ schedule }: { schedule: Schedule }) {
  const me = useMe();
  const myId = me.data?.user?.id ?? null;
  const admin = canWrite(me.data, 'admin');
  const member = canWrite(me.data, 'member');
  const people = layerPeople(schedule);
  const mayMarkSelf = myId !== null && people.some((p) => p.id === myId);
  const mayAdd = member && (admin ? people.length > 0 : mayMarkSelf);
  const [span] = useState(() => {
    const from = new Date(Math.floor(Date.now() / 60_000) * 60_000);
    return { from, to: new Date(from.getTime() + UNAVAILABILITY_LIST_DAYS * 86_400_000) };
  });
  const [form, setForm] = useState<UnavailabilityForm>(() =>
    emptyUnavailabilityForm(new Date(), admin ? '' : (myId ?? '')),
  );
  const [formError, setFormError] = useState<string | null>(null);
  const [said, setSaid] = useState('');
  // The API says when the range leaves nobody on call; the warning stays until the next range is marked.
  const [gapWarning, setGapWarning] = useState<string | null>(null);
  const queryClient = useQueryClient();
  const ranges = useQuery({
    queryKey: ['unavailability', schedule.id, span.from.toISOString()],
    queryFn: () => unavailabilityApi.list(schedule.id, span.from, span.to),
    retry: (count, error) => !isMissingEndpoint(error) && count < 2,
  });
  const refresh = async () => {
    await queryClient.invalidateQueries({ queryKey: ['unavailability', schedule.id] });
    await queryClient.invalidateQueries({ queryKey: ['schedule-shifts', schedule.id] });
    await queryClient.invalidateQueries({ queryKey: ['on-call', schedule.id] });
  };
  const add = useMutation({
    mutationFn: (input: Parameters<typeof unavailabilityApi.create>[1]) =>
      unavailabilityApi.create(schedule.id, input),
    onSuccess: async (created) => {
      setSaid(
        `${created.user.name} is unavailable from ${formatDateTime(created.starts_at)} until ${formatDateTime(created.ends_at)}.`,
      );
      setGapWarning(
        created.leaves_gap
          ? `Nobody is on call in ${schedule.name} at some time while ${created.user.name} is away: arrange an override to cover.`
          : null,
      );
      await refresh();
    },
  });
  const remove = useMutation({
    mutationFn: (range: ScheduleUnavailability) => unavailabilityApi.remove(schedule.id, range.id),
    onSuccess: refresh,
  });
  const submit = (event: FormEvent) => {
    event.preventDefault();
    const made = unavailabilityInputOf(admin ? form : { ...form, userId: myId ?? '' });
    if ('error' in made) {
      setFormError(made.error);
      return;
    }
    setFormError(null);
    add.mutate(made.input);
  };
  const mayDelete = (range: ScheduleUnavailability) => member && (admin || range.user.id === myId);
  const list = ranges.data?.unavailability ?? [];
  return (
    <section className="card stack" aria-labelledby="unavailability-heading">
      <h2 id="unavailability-heading">Unavailability</h2>
      <p className="subtle small">
        While someone is away, their turns go to the next available person in the layer.
      </p>
      {isMissingEndpoint(ranges.error) ? (
        <p className="alert-box alert-info">This server does not support unavailability.</p>
      ) : (
        <ErrorMessage error={ranges.error} prefix="Could not load the unavailability" />
      )}
      <ErrorMessage error={remove.error} prefix="The unavailability was not deleted" />
      {ranges.data ? (
        <TableScroll label={`Unavailability in ${schedule.name}`}>
          <table aria-label={`Unavailability in ${schedule.name}`}>
            <thead>
              <tr>
                <th>Who</th>
                <th>From</th>
                <th>Until</th>
                <th>Actions</th>
              </tr>
            </thead>
            <tbody>
              {list.map((range) => (
                <tr key={range.id}>
                  <td>{range.user.name}</td>
                  <td>{formatDateTime(range.starts_at)}</td>
                  <td>{formatDateTime(range.ends_at)}</td>
                  <td>
                    {mayDelete(range) ? (
                      <button
                        type="button"
                        className="danger"
                        disabled={remove.isPending}
                        aria-label={`Delete the unavailability of ${range.user.name} from ${formatDateTime(range.starts_at)}`}
                        onClick={() => {
                          if (window.confirm(`Delete the unavailability of ${range.user.name}?`))
                            remove.mutate(range);
                        }}
                      >
                        Delete
                      </button>
                    ) : null}
                  </td>
                </tr>
              ))}
            </tbody>
          </table>
          {list.length === 0 ? (
            <p className="empty">Nobody is unavailable in the next {UNAVAILABILITY_LIST_DAYS} days.</p>
          ) : null}
        </TableScroll>
      ) : null}
      {mayAdd ? (
        <form className="form" onSubmit={submit} aria-label="Mark unavailable">
          <div className="form-row">
            {admin ? (
              <label>
                Who
                <select
                  required
                  value={form.userId}
                  onChange={(e) => setForm((f) => ({ ...f, userId: e.target.value }))}
                >
                  <option value="">Choose…</option>
                  {people.map((p) => (
                    <option key={p.id} value={p.id}>
                      {p.name}
                    </option>
                  ))}
                </select>
              </label>
            ) : null}
            <label>
              From <span className="hint">your time zone</span>
              <input
                type="datetime-local"
                required
                value={form.startsAt}
                onChange={(e) => setForm((f) => ({ ...f, startsAt: e.target.value }))}
              />
            </label>
            <label>
              Until
              <input
                type="datetime-local"
                required
                value={form.endsAt}
                onChange={(e) => setForm((f) => ({ ...f, endsAt: e.target.value }))}
              />
            </label>
          </div>
          <ErrorMessage error={formError ?? add.error} prefix="The unavailability was not saved" />
          <div className="actions">
            <button type="submit" className="primary" disabled={add.isPending}>
              {admin ? 'Mark unavailable' : 'Mark me unavailable'}
            </button>
          </div>
        </form>
      ) : member && !admin ? (
        <p className="subtle small">You take part in no layer of this schedule.</p>
      ) : null}
      <p role="status" className="small">
        {said}
      </p>
      {gapWarning ? (
        <p role="alert" className="alert-box alert-warn">
          {gapWarning}
        </p>
      ) : null}
    </section>
  );
}
