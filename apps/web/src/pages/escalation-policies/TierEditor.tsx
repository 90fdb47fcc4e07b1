import type { Schedule, TargetType, User } from '@firebreak/schema';
import { ListedPerson, RemovePersonButton } from '../../components/ListedPerson';
import { MoveControls } from '../../components/MoveControls';
import { PersonPicker } from '../../components/PersonPicker';
import { removeAt } from '../../lib/list-edit';
import { type TierForm, tierUserOf } from './policy-form';

interface Props {
  tier: TierForm;
  index: number;
  count: number;
  users: User[];
  schedules: Schedule[];
  onChange: (tier: TierForm) => void;
  onMove: (delta: number) => void;
  onRemove: () => void;
}

/** One tier: whom it pages and how long it waits for an acknowledgement before the next. */
export function TierEditor({ tier, index, count, users, schedules, onChange, onMove, onRemove }: Props) {
  const set = <K extends keyof TierForm>(key: K, value: TierForm[K]) => onChange({ ...tier, [key]: value });
  const title = `Tier ${index + 1}`;
  const chosen = new Set(tier.users.map((u) => u.userId));
  return (
    <fieldset className="form" aria-label={title}>
      <legend>{title}</legend>
      <div className="form-row">
        <label>
          {title} pages
          <select value={tier.targetType} onChange={(e) => set('targetType', e.target.value as TargetType)}>
            <option value="users">People</option>
            <option value="schedule">Whoever is on call in a schedule</option>
          </select>
        </label>
        {tier.targetType === 'schedule' ? (
          <label>
            Schedule for {title}
            <select value={tier.scheduleId} onChange={(e) => set('scheduleId', e.target.value)}>
              <option value="">Choose…</option>
              {schedules.map((schedule) => (
                <option key={schedule.id} value={schedule.id}>
                  {schedule.name}
                </option>
              ))}
            </select>
          </label>
        ) : null}
        <label>
          Minutes until the next tier
          <input
            type="number"
            min={1}
            step="any"
            required
            value={tier.timeoutMinutes}
            onChange={(e) => set('timeoutMinutes', e.target.value)}
          />
        </label>
      </div>
      {tier.targetType === 'users' ? (
        <div>
          {tier.users.length === 0 ? (
            <p className="subtle small">Nobody yet.</p>
          ) : (
            <ul className="edit-list" aria-label={`People ${title} pages`}>
              {tier.users.map((person, i) => (
                <li key={person.key}>
                  <ListedPerson person={person} />
                  <RemovePersonButton
                    name={person.name}
                    from={title}
                    onRemove={() => set('users', removeAt(tier.users, i))}
                  />
                </li>
              ))}
            </ul>
          )}
          <PersonPicker
            label={`Add a person to ${title}`}
            people={users.filter((u) => u.active && !chosen.has(u.id))}
            onAdd={(user) => set('users', [...tier.users, tierUserOf(user)])}
          />
        </div>
      ) : null}
      <MoveControls
        noun="tier"
        title={title}
        index={index}
        count={count}
        onMove={onMove}
        onRemove={onRemove}
      />
    </fieldset>
  );
}
