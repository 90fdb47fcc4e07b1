import type { RoutingRule } from '@firebreak/schema';
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { useRef, useState } from 'react';
import { ErrorMessage } from '../../components/ErrorMessage';
import { api } from '../../lib/api';
import { useFocusOnClose } from '../../lib/focus';
import { canWrite, useMe } from '../../lib/session';
import { RuleEditor } from './RuleEditor';
import { RulePreview } from './RulePreview';
import { describeActions, describeMatch } from './rule-form';

/** Rules in evaluation order (ascending priority, the API's order): the first enabled match decides. */
export function RoutingRulesPage() {
  const me = useMe();
  const admin = canWrite(me.data, 'admin');
  const queryClient = useQueryClient();
  const rules = useQuery({ queryKey: ['routing-rules'], queryFn: api.routingRules });
  const policies = useQuery({ queryKey: ['escalation-policies'], queryFn: api.escalationPolicies });
  const [editing, setEditing] = useState<RoutingRule | 'new' | null>(null);
  // Focus goes back to the Edit button that opened the editor, or to "New rule", which was hidden.
  const newRule = useRef<HTMLButtonElement>(null);
  const opener = useRef<HTMLElement | null>(null);
  const openEditor = (target: RoutingRule | 'new', from: HTMLElement) => {
    opener.current = from;
    setEditing(target);
  };
  useFocusOnClose(editing !== null, () => (opener.current?.isConnected ? opener.current : newRule.current));
  const remove = useMutation({
    mutationFn: (rule: RoutingRule) => api.deleteRule(rule.id),
    onSuccess: () => queryClient.invalidateQueries({ queryKey: ['routing-rules'] }),
  });
  const policyName = (id?: string) => policies.data?.escalation_policies.find((p) => p.id === id)?.name ?? id;
  const list = rules.data?.routing_rules ?? [];
  const nextPriority = list.length > 0 ? Math.max(...list.map((r) => r.priority)) + 10 : 100;

  return (
    <>
      <div className="page-head">
        <div>
          <h1>Routing rules</h1>
          <p className="subtle small">
            Tried in priority order, lowest first; the first enabled rule that matches decides what an alert
            does.
          </p>
        </div>
        {admin && editing === null ? (
          <button
            ref={newRule}
            type="button"
            className="primary"
            onClick={(e) => openEditor('new', e.currentTarget)}
          >
            New rule
          </button>
        ) : null}
      </div>
      {editing !== null ? (
        <RuleEditor
          // A new key per rule: choosing another rule while one is open starts from that rule's fields.
          key={editing === 'new' ? 'new' : editing.id}
          rule={editing === 'new' ? null : editing}
          nextPriority={nextPriority}
          policies={policies.data?.escalation_policies ?? []}
          onClose={() => setEditing(null)}
        />
      ) : null}
      <ErrorMessage error={rules.error} prefix="Could not load routing rules" />
      <ErrorMessage error={remove.error} prefix="The rule was not deleted" />
      <div className="card table-wrap" style={{ padding: 0, marginBottom: '1rem' }}>
        <table aria-label="Routing rules">
          <thead>
            <tr>
              <th className="num">Priority</th>
              <th>Name</th>
              <th>Matches</th>
              <th>Then</th>
              <th>State</th>
              {admin ? <th>Actions</th> : null}
            </tr>
          </thead>
          <tbody>
            {list.map((rule) => (
              <tr key={rule.id}>
                <td className="num">{rule.priority}</td>
                <td style={{ fontWeight: 600 }}>{rule.name}</td>
                <td>{describeMatch(rule)}</td>
                <td>{describeActions(rule, policyName(rule.actions.escalation_policy_id))}</td>
                <td>{rule.enabled ? 'Enabled' : <span className="subtle">Disabled</span>}</td>
                {admin ? (
                  <td>
                    <div className="actions">
                      <button
                        type="button"
                        onClick={(e) => openEditor(rule, e.currentTarget)}
                        aria-label={`Edit ${rule.name}`}
                      >
                        Edit
                      </button>
                      <button
                        type="button"
                        className="danger"
                        aria-label={`Delete ${rule.name}`}
                        onClick={() => {
                          if (window.confirm(`Delete the rule "${rule.name}"?`)) remove.mutate(rule);
                        }}
                      >
                        Delete
                      </button>
                    </div>
                  </td>
                ) : null}
              </tr>
            ))}
          </tbody>
        </table>
        {rules.data && list.length === 0 ? (
          <p className="empty">No rules: alerts are stored without opening incidents.</p>
        ) : null}
      </div>
      <RulePreview />
    </>
  );
}
