import type { EscalationPolicy } from '@firebreak/schema';
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { useState } from 'react';
import { EditorForm } from '../../components/EditorForm';
import { ErrorMessage } from '../../components/ErrorMessage';
import { NameField } from '../../components/NameField';
import { api } from '../../lib/api';
import { moveItem, removeAt, replaceAt } from '../../lib/list-edit';
import { useValidatedSubmit } from '../../lib/validated-submit';
import {
  emptyPolicyForm,
  emptyTier,
  formOfPolicy,
  MAX_REPEAT,
  type PolicyForm,
  policyInputOf,
} from './policy-form';
import { TierEditor } from './TierEditor';

/** Admins create and change escalation policies here. */
export function PolicyEditor({ policy, onClose }: { policy: EscalationPolicy | null; onClose: () => void }) {
  const [form, setForm] = useState<PolicyForm>(() => (policy ? formOfPolicy(policy) : emptyPolicyForm()));
  const users = useQuery({ queryKey: ['users'], queryFn: api.users });
  const schedules = useQuery({ queryKey: ['schedules'], queryFn: api.schedules });
  const queryClient = useQueryClient();
  const save = useMutation({
    mutationFn: (input: Parameters<typeof api.createEscalationPolicy>[0]) =>
      policy ? api.updateEscalationPolicy(policy.id, input) : api.createEscalationPolicy(input),
    onSuccess: async () => {
      await queryClient.invalidateQueries({ queryKey: ['escalation-policies'] });
      onClose();
    },
  });
  const { formError, submit } = useValidatedSubmit(() => policyInputOf(form), save.mutate);
  const tiers = form.tiers;
  const setTiers = (next: PolicyForm['tiers']) => setForm((f) => ({ ...f, tiers: next }));
  return (
    <EditorForm
      label={policy ? `Edit policy ${policy.name}` : 'New escalation policy'}
      title={policy ? `Edit “${policy.name}”` : 'New escalation policy'}
      onSubmit={submit}
      error={formError ?? save.error}
      errorPrefix="The policy was not saved"
      pending={save.isPending}
      submitLabel={policy ? 'Save policy' : 'Create policy'}
      onCancel={onClose}
    >
      <div className="form-row">
        <NameField value={form.name} onChange={(name) => setForm({ ...form, name })} />
        <label>
          Repeat <span className="hint">more rounds after the last tier, 0–{MAX_REPEAT}</span>
          <input
            type="number"
            min={0}
            max={MAX_REPEAT}
            required
            value={form.repeat}
            onChange={(e) => setForm({ ...form, repeat: e.target.value })}
          />
        </label>
        <label className="inline" style={{ alignSelf: 'end' }}>
          <input
            type="checkbox"
            checked={form.enabled}
            onChange={(e) => setForm({ ...form, enabled: e.target.checked })}
          />
          Enabled
        </label>
      </div>
      <label>
        Description <span className="hint">optional</span>
        <input value={form.description} onChange={(e) => setForm({ ...form, description: e.target.value })} />
      </label>
      {tiers.map((tier, index) => (
        <TierEditor
          key={tier.key}
          tier={tier}
          index={index}
          count={tiers.length}
          users={users.data?.users ?? []}
          schedules={schedules.data?.schedules ?? []}
          onChange={(changed) => setTiers(replaceAt(tiers, index, changed))}
          onMove={(delta) => setTiers(moveItem(tiers, index, delta))}
          onRemove={() => setTiers(removeAt(tiers, index))}
        />
      ))}
      <p>
        <button type="button" onClick={() => setTiers([...tiers, emptyTier()])}>
          Add tier
        </button>
      </p>
      <ErrorMessage error={users.error ?? schedules.error} prefix="Could not load the choices" />
    </EditorForm>
  );
}
