import type { Schedule } from '@firebreak/schema';
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { useMemo, useState } from 'react';
import { EditorForm } from '../../components/EditorForm';
import { ErrorMessage } from '../../components/ErrorMessage';
import { NameField } from '../../components/NameField';
import { api } from '../../lib/api';
import { moveItem, removeAt, replaceAt } from '../../lib/list-edit';
import { useValidatedSubmit } from '../../lib/validated-submit';
import { LayerEditor } from './LayerEditor';
import { SchedulePreview } from './SchedulePreview';
import {
  emptyLayer,
  emptyScheduleForm,
  formOfSchedule,
  knownTimeZones,
  type ScheduleForm,
  scheduleInputOf,
} from './schedule-form';

interface Props {
  schedule: Schedule | null;
  onClose: () => void;
  onSaved?: (schedule: Schedule) => void;
}

/** Admins create and change schedules here; the preview updates as they type. */
export function ScheduleEditor({ schedule, onClose, onSaved }: Props) {
  const [form, setForm] = useState<ScheduleForm>(() =>
    schedule ? formOfSchedule(schedule) : emptyScheduleForm(new Date()),
  );
  // The preview's window starts when the editor opens, so it does not shift under the reader.
  const [from] = useState(() => new Date());
  const zones = useMemo(knownTimeZones, []);
  const users = useQuery({ queryKey: ['users'], queryFn: api.users });
  const queryClient = useQueryClient();
  const save = useMutation({
    mutationFn: (input: Parameters<typeof api.createSchedule>[0]) =>
      schedule ? api.updateSchedule(schedule.id, input) : api.createSchedule(input),
    onSuccess: async (saved) => {
      await queryClient.invalidateQueries({ queryKey: ['schedules'] });
      await queryClient.invalidateQueries({ queryKey: ['schedule', saved.id] });
      onSaved?.(saved);
      onClose();
    },
  });
  const { formError, submit } = useValidatedSubmit(() => scheduleInputOf(form), save.mutate);
  const layers = form.layers;
  const setLayers = (next: ScheduleForm['layers']) => setForm((f) => ({ ...f, layers: next }));

  return (
    <EditorForm
      label={schedule ? `Edit schedule ${schedule.name}` : 'New schedule'}
      title={schedule ? `Edit “${schedule.name}”` : 'New schedule'}
      onSubmit={submit}
      error={formError ?? save.error}
      errorPrefix="The schedule was not saved"
      pending={save.isPending}
      submitLabel={schedule ? 'Save schedule' : 'Create schedule'}
      onCancel={onClose}
    >
      <div className="form-row">
        <NameField value={form.name} onChange={(name) => setForm({ ...form, name })} />
        <label>
          Time zone <span className="hint">IANA name, e.g. Europe/Berlin</span>
          <input
            required
            list="schedule-time-zones"
            autoComplete="off"
            spellCheck={false}
            value={form.timezone}
            onChange={(e) => setForm({ ...form, timezone: e.target.value })}
          />
        </label>
        <datalist id="schedule-time-zones">
          {zones.map((zone) => (
            <option key={zone} value={zone} />
          ))}
        </datalist>
      </div>
      <p className="subtle small">
        Layers further down the list win where two have someone on call: put the everyday rotation first and
        cover (weekends, holidays) below it.
      </p>
      {layers.map((layer, index) => (
        <LayerEditor
          key={layer.key}
          layer={layer}
          index={index}
          count={layers.length}
          timezone={form.timezone}
          users={users.data?.users ?? []}
          onChange={(changed) => setLayers(replaceAt(layers, index, changed))}
          onMove={(delta) => setLayers(moveItem(layers, index, delta))}
          onRemove={() => setLayers(removeAt(layers, index))}
        />
      ))}
      <p>
        <button
          type="button"
          onClick={() => setLayers([...layers, emptyLayer(new Date(), form.timezone, layers.length)])}
        >
          Add layer
        </button>
      </p>
      <ErrorMessage error={users.error} prefix="Could not load the people to choose from" />
      <SchedulePreview form={form} from={from} />
    </EditorForm>
  );
}
