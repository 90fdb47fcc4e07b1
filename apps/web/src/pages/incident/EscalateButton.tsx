import type { Incident } from '@firebreak/schema';
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { ErrorMessage } from '../../components/ErrorMessage';
import { api } from '../../lib/api';

/**
 * "I need help": pages the next tier of the incident's escalation policy now (docs/api.md#manual-escalation).
 * Offered while the incident has a policy and a tier left. It names the tier it shows (`next_tier`), so
 * a double click, or two people at once, page that tier once: the other request is told it was paged.
 */
export function EscalateButton({ incident }: { incident: Incident }) {
  const queryClient = useQueryClient();
  const nextTier = incident.next_tier ?? undefined;
  const escalate = useMutation({
    mutationFn: () => api.escalateIncident(incident.id, nextTier),
    onSuccess: () =>
      Promise.all([
        queryClient.invalidateQueries({ queryKey: ['incident'] }),
        queryClient.invalidateQueries({ queryKey: ['timeline', incident.id] }),
      ]),
  });
  if (!incident.escalation_policy_id) return null;
  return (
    <>
      <button
        type="button"
        disabled={escalate.isPending || incident.next_tier === null}
        title={incident.next_tier === null ? 'Every tier of the escalation policy was paged' : undefined}
        onClick={() => escalate.mutate()}
      >
        {nextTier === undefined ? 'Escalate' : `Escalate to tier ${nextTier}`}
      </button>
      {escalate.data ? (
        <span className="subtle small" role="status">
          Tier {escalate.data.escalated_to_tier} paged
        </span>
      ) : null}
      <ErrorMessage error={escalate.error} prefix="Not escalated" />
    </>
  );
}
