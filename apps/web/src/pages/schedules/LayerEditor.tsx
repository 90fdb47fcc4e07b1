import type { User } from '@firebreak/schema';
import { ListedPerson, RemovePersonButton } from '../../components/ListedPerson';
import { MoveControls } from '../../components/MoveControls';
import { PersonPicker } from '../../components/PersonPicker';
import { moveItem, removeAt } from '../../lib/list-edit';
import { type LayerForm, type LengthPreset, participantOf } from './schedule-form';

interface Props {
  layer: LayerForm;
  index: number;
  count: number;
  timezone: string;
  users: User[];
  onChange: (layer: LayerForm) => void;
  onMove: (delta: number) => void;
  onRemove: () => void;
}

/** One layer of the schedule editor: its rotation and the people taking turns, in order. */
export function LayerEditor({ layer, index, count, timezone, users, onChange, onMove, onRemove }: Props) {
  const set = <K extends keyof LayerForm>(key: K, value: LayerForm[K]) =>
    onChange({ ...layer, [key]: value });
  const title = layer.name.trim() || `Layer ${index + 1}`;
  const last = layer.participants.length - 1;
  return (
    <fieldset className="form" aria-label={`Layer ${index + 1}: ${title}`}>
      <legend>
        Layer {index + 1}: {title}
      </legend>
      <div className="form-row">
        <label>
          Layer name
          <input required value={layer.name} onChange={(e) => set('name', e.target.value)} />
        </label>
        <label>
          Rotation start <span className="hint">{timezone} time</span>
          <input
            type="datetime-local"
            required
            value={layer.rotationStart}
            onChange={(e) => set('rotationStart', e.target.value)}
          />
        </label>
        <label>
          Rotation length
          <select value={layer.preset} onChange={(e) => set('preset', e.target.value as LengthPreset)}>
            <option value="daily">Daily (24 hours)</option>
            <option value="weekly">Weekly (7 days)</option>
            <option value="custom">Custom hours</option>
          </select>
        </label>
        {layer.preset === 'custom' ? (
          <label>
            Hours per turn
            <input
              type="number"
              min={0.5}
              step="any"
              required
              value={layer.customHours}
              onChange={(e) => set('customHours', e.target.value)}
            />
          </label>
        ) : null}
      </div>
      <div>
        <h4 className="small" id={`${layer.key}-people`}>
          Taking turns, in order
        </h4>
        {layer.participants.length === 0 ? (
          <p className="subtle small">Nobody yet: this layer puts no one on call.</p>
        ) : (
          <ol className="edit-list" aria-labelledby={`${layer.key}-people`}>
            {layer.participants.map((person, i) => (
              <li key={person.key}>
                <ListedPerson person={person} />
                <span className="actions">
                  <button
                    type="button"
                    disabled={i === 0}
                    aria-label={`Move ${person.name} up in ${title}`}
                    onClick={() => set('participants', moveItem(layer.participants, i, -1))}
                  >
                    ↑
                  </button>
                  <button
                    type="button"
                    disabled={i === last}
                    aria-label={`Move ${person.name} down in ${title}`}
                    onClick={() => set('participants', moveItem(layer.participants, i, 1))}
                  >
                    ↓
                  </button>
                  <RemovePersonButton
                    name={person.name}
                    from={title}
                    onRemove={() => set('participants', removeAt(layer.participants, i))}
                  />
                </span>
              </li>
            ))}
          </ol>
        )}
        {/* The same person may take more than one turn, so everyone active is offered every time. */}
        <PersonPicker
          label={`Add a person to ${title}`}
          people={users.filter((u) => u.active)}
          onAdd={(user) => set('participants', [...layer.participants, participantOf(user)])}
        />
      </div>
      <MoveControls
        noun="layer"
        title={title}
        index={index}
        count={count}
        onMove={onMove}
        onRemove={onRemove}
      />
    </fieldset>
  );
}
