import { type FormEvent, useEffect, useState } from 'react';
import { type DayRange, lastDays, presetDays, presetOf } from './analytics-range';

/** The range (two dates, or a preset) and the label to count incidents by. */
export function RangeForm({
  range,
  groupBy,
  onRange,
  onGroupBy,
}: {
  range: DayRange;
  groupBy: string;
  onRange: (range: DayRange) => void;
  onGroupBy: (label: string) => void;
}) {
  const preset = presetOf(range);
  // The label is applied on submit, not on every keystroke (each would be a request).
  const [label, setLabel] = useState(groupBy);
  useEffect(() => setLabel(groupBy), [groupBy]);
  const submit = (event: FormEvent) => {
    event.preventDefault();
    onGroupBy(label);
  };
  return (
    <div className="card analytics-controls">
      <fieldset className="plain-fieldset actions">
        <legend className="visually-hidden">Range</legend>
        {presetDays.map((days) => (
          <button
            key={days}
            type="button"
            className="tab"
            aria-pressed={preset === days}
            onClick={() => onRange(lastDays(days))}
          >
            Last {days} days
          </button>
        ))}
        <label className="inline">
          From
          <input
            type="date"
            value={range.from}
            required
            onChange={(e) => e.target.value && onRange({ ...range, from: e.target.value })}
          />
        </label>
        <label className="inline">
          To
          <input
            type="date"
            value={range.to}
            required
            onChange={(e) => e.target.value && onRange({ ...range, to: e.target.value })}
          />
        </label>
      </fieldset>
      <form className="actions" onSubmit={submit}>
        <label className="inline">
          Group incidents by label
          <input
            value={label}
            placeholder="e.g. team"
            maxLength={256}
            onChange={(e) => setLabel(e.target.value)}
          />
        </label>
        <button type="submit">Apply</button>
      </form>
    </div>
  );
}
