import { useMutation, useQueryClient } from '@tanstack/react-query';
import { ErrorMessage } from '../../components/ErrorMessage';
import { api } from '../../lib/api';

/** Asks for an AI draft (one pending per incident: a second click answers with the same job). */
export function RequestAiDraft({ incidentId, label }: { incidentId: string; label: string }) {
  const queryClient = useQueryClient();
  const request = useMutation({
    mutationFn: () => api.requestPostmortem(incidentId),
    onSuccess: () => queryClient.invalidateQueries({ queryKey: ['postmortem', incidentId] }),
  });
  return (
    <>
      <button type="button" disabled={request.isPending} onClick={() => request.mutate()}>
        {request.isPending ? 'Asking…' : label}
      </button>
      <ErrorMessage error={request.error} prefix="The AI draft was not requested" />
    </>
  );
}
