import { useRef } from 'react';
import { useFocusOnMount } from '../lib/focus';

/** An editor's first field, "Name": it takes the focus when the editor opens. */
export function NameField({ value, onChange }: { value: string; onChange: (name: string) => void }) {
  const field = useRef<HTMLInputElement>(null);
  useFocusOnMount(field);
  return (
    <label>
      Name
      <input ref={field} required value={value} onChange={(e) => onChange(e.target.value)} />
    </label>
  );
}
