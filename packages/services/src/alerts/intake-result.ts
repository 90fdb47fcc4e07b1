/** The webhook answer (docs/integrations/alert-webhooks.md#answers). */
export interface IntakeResult {
  received: number;
  created: number;
  updated: number;
  resolved: number;
  suppressed: number;
  incidents_created: number;
  alerts: Array<{
    id: string;
    external_id: string | null;
    status: 'firing' | 'resolved';
    incident_id: string | null;
  }>;
}

export function emptyResult(received: number): IntakeResult {
  return { received, created: 0, updated: 0, resolved: 0, suppressed: 0, incidents_created: 0, alerts: [] };
}
