import type { EscalationTier } from '@firebreak/schema';
import { useQuery } from '@tanstack/react-query';
import { useRef, useState } from 'react';
import { ErrorMessage } from '../components/ErrorMessage';
import { api } from '../lib/api';
import { useFocusOnClose } from '../lib/focus';
import { formatDuration } from '../lib/format';
import { canWrite, useMe } from '../lib/session';
import { PolicyEditor } from './escalation-policies/PolicyEditor';

export function EscalationPoliciesPage() {
  const policies = useQuery({ queryKey: ['escalation-policies'], queryFn: api.escalationPolicies });
  const schedules = useQuery({ queryKey: ['schedules'], queryFn: api.schedules });
  const settings = useQuery({ queryKey: ['settings'], queryFn: api.settings });
  const me = useMe();
  const admin = canWrite(me.data, 'admin');
  // 'new', a policy's id, or null: one editor open at a time.
  const [editing, setEditing] = useState<string | null>(null);
  const opener = useRef<string | null>(null);
  useFocusOnClose(editing !== null, () =>
    document.querySelector<HTMLElement>(`[data-opens="${opener.current ?? ''}"]`),
  );
  const open = (which: string) => {
    opener.current = which;
    setEditing(which);
  };
  const scheduleName = (id: string | null) =>
    schedules.data?.schedules.find((s) => s.id === id)?.name ?? 'a schedule';
  const target = (tier: EscalationTier) =>
    tier.target_type === 'schedule'
      ? `on call in ${scheduleName(tier.schedule_id)}`
      : tier.user_names.join(', ');
  return (
    <>
      <div className="page-head">
        <div>
          <h1>Escalation policies</h1>
          <p className="subtle small">Who is paged, in order, until someone acknowledges.</p>
        </div>
        {admin && editing === null ? (
          <button type="button" className="primary" data-opens="new" onClick={() => open('new')}>
            New policy
          </button>
        ) : null}
      </div>
      {editing === 'new' ? <PolicyEditor policy={null} onClose={() => setEditing(null)} /> : null}
      <ErrorMessage error={policies.error} prefix="Could not load escalation policies" />
      {policies.data?.escalation_policies.length === 0 ? (
        <p className="card empty">No escalation policies yet.</p>
      ) : null}
      <div className="stack">
        {policies.data?.escalation_policies.map((policy) =>
          editing === policy.id ? (
            <PolicyEditor key={policy.id} policy={policy} onClose={() => setEditing(null)} />
          ) : (
            <section key={policy.id} className="card" aria-label={`Policy ${policy.name}`}>
              <h2>
                {policy.name}{' '}
                {settings.data?.default_escalation_policy_id === policy.id ? (
                  <span className="badge plain">Default</span>
                ) : null}
                {!policy.enabled ? <span className="badge plain subtle">Disabled</span> : null}
              </h2>
              {policy.description ? <p className="subtle small">{policy.description}</p> : null}
              <ol>
                {policy.tiers.map((tier, index) => (
                  // biome-ignore lint/suspicious/noArrayIndexKey: a tier is its position; the list is never reordered here.
                  <li key={`${policy.id}-${index}`}>
                    {target(tier)}{' '}
                    <span className="subtle">— next tier after {formatDuration(tier.timeout_seconds)}</span>
                  </li>
                ))}
              </ol>
              {policy.repeat > 0 ? (
                <p className="small subtle">Repeats {policy.repeat} more time(s) after the last tier.</p>
              ) : null}
              {admin && editing === null ? (
                <button
                  type="button"
                  data-opens={policy.id}
                  aria-label={`Edit policy ${policy.name}`}
                  onClick={() => open(policy.id)}
                >
                  Edit
                </button>
              ) : null}
            </section>
          ),
        )}
      </div>
    </>
  );
}
