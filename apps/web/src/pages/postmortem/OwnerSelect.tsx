import type { User } from '@firebreak/schema';

/**
 * Who owns an action item: an active person, or nobody yet. The item's owner stays a choice even when
 * they are not in `people` (deactivated, or the list not loaded yet): otherwise the box shows nobody,
 * and the person cannot tell whom the item belongs to.
 */
export function OwnerSelect(props: {
  label: string;
  people: User[];
  value: string;
  onChange: (userId: string) => void;
  current?: { id: string | null; name: string } | null;
  disabled?: boolean;
}) {
  const { label, people, value, onChange, current, disabled } = props;
  const currentId = current?.id;
  const choices = people.map((user) => ({ id: user.id, name: user.name }));
  if (currentId && current && !choices.some((choice) => choice.id === currentId)) {
    choices.push({ id: currentId, name: current.name });
  }
  return (
    <label>
      {label}
      <select value={value} onChange={(e) => onChange(e.target.value)} disabled={disabled}>
        <option value="">Nobody yet</option>
        {choices.map((choice) => (
          <option key={choice.id} value={choice.id}>
            {choice.name}
          </option>
        ))}
      </select>
    </label>
  );
}
