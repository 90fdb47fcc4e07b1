import { alerts, incidents, type Queryable, timeline } from '@firebreak/db';

/** Everything an incident's AI prompt may contain: its own record, alerts and timeline — nothing else. */
export interface IncidentContext {
  incident: incidents.IncidentView;
  alerts: alerts.AlertRow[];
  entries: timeline.TimelineRow[];
}

export async function loadIncidentContext(
  sql: Queryable,
  incidentId: string,
): Promise<IncidentContext | undefined> {
  const incident = await incidents.findIncidentView(sql, { id: incidentId });
  if (!incident) return undefined;
  const [linked, entries] = await Promise.all([
    alerts.listAlertsOfIncident(sql, incidentId),
    timeline.listTimeline(sql, incidentId),
  ]);
  return { incident, alerts: linked, entries };
}

/** Incidents that were opened, changed or resolved in a window, or are still open (the handoff). */
export async function loadHandoffIncidents(sql: Queryable, since: Date, until: Date) {
  return sql<
    {
      number: number;
      title: string;
      severity: string;
      status: string;
      created_at: Date;
      resolved_at: Date | null;
      changes: number;
    }[]
  >`
    select i.number, i.title, i.severity, i.status, i.created_at, i.resolved_at,
           (select count(*)::int from timeline_entries t
             where t.incident_id = i.id and t.created_at >= ${since} and t.created_at < ${until}) as changes
    from incidents i
    where (i.created_at >= ${since} and i.created_at < ${until})
       or (i.resolved_at >= ${since} and i.resolved_at < ${until})
       or (i.status <> 'resolved' and i.created_at < ${until})
       or exists (select 1 from timeline_entries t
                   where t.incident_id = i.id and t.created_at >= ${since} and t.created_at < ${until})
    order by i.number
    limit 500`;
}
