import type { Incident } from '@firebreak/schema';
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { api, type IncidentPatch } from '../../lib/api';

/** A PATCH of the incident; on success everything that shows incidents is read again at once. */
export function useIncidentChange(incident: Incident) {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (changes: IncidentPatch) => api.updateIncident(incident.id, changes),
    onSuccess: () =>
      Promise.all([
        queryClient.invalidateQueries({ queryKey: ['incident'] }),
        queryClient.invalidateQueries({ queryKey: ['timeline', incident.id] }),
        queryClient.invalidateQueries({ queryKey: ['incidents'] }),
        queryClient.invalidateQueries({ queryKey: ['incident-counts'] }),
      ]),
  });
}
