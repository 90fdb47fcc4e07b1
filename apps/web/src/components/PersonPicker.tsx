import type { User } from '@firebreak/schema';
import { useState } from 'react';

interface Props {
  /** The select's label, e.g. "Add a person to Tier 1". */
  label: string;
  /** The people offered, in the order shown. */
  people: User[];
  onAdd: (user: User) => void;
}

/** A choice of people and an "Add person" button that adds the one chosen, then clears the choice. */
export function PersonPicker({ label, people, onAdd }: Props) {
  const [picked, setPicked] = useState('');
  const add = () => {
    const user = people.find((u) => u.id === picked);
    if (!user) return;
    onAdd(user);
    setPicked('');
  };
  return (
    <div className="actions" style={{ alignItems: 'end' }}>
      <label>
        {label}
        <select value={picked} onChange={(e) => setPicked(e.target.value)}>
          <option value="">Choose…</option>
          {people.map((user) => (
            <option key={user.id} value={user.id}>
              {user.name} ({user.email})
            </option>
          ))}
        </select>
      </label>
      <button type="button" disabled={!picked} onClick={add}>
        Add person
      </button>
    </div>
  );
}
