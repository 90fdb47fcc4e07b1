import type { SettingsView } from '@firebreak/schema';
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { ErrorMessage } from '../../components/ErrorMessage';
import { api } from '../../lib/api';

/** The policy an incident gets when its routing rule names none. */
export function DefaultPolicySection({ settings, admin }: { settings: SettingsView; admin: boolean }) {
  const policies = useQuery({ queryKey: ['escalation-policies'], queryFn: api.escalationPolicies });
  const queryClient = useQueryClient();
  const save = useMutation({
    mutationFn: (id: string | null) => api.setDefaultPolicy(id),
    onSuccess: (view) => queryClient.setQueryData(['settings'], view),
  });
  return (
    <section className="card" aria-labelledby="default-policy-heading">
      <h2 id="default-policy-heading">Default escalation policy</h2>
      <label style={{ maxWidth: '28rem' }}>
        Used when a routing rule names no policy
        <select
          value={settings.default_escalation_policy_id ?? ''}
          disabled={!admin || save.isPending}
          onChange={(e) => save.mutate(e.target.value || null)}
        >
          <option value="">None — nobody is paged</option>
          {policies.data?.escalation_policies.map((p) => (
            <option key={p.id} value={p.id}>
              {p.name}
            </option>
          ))}
        </select>
      </label>
      <ErrorMessage error={save.error ?? policies.error} />
    </section>
  );
}
