import { timeline } from '@firebreak/db';
import { AppError, type IncidentStatus } from '@firebreak/schema';
import type { ServiceContext } from '../context';
import { updateIncident } from '../incidents/update';

/** The ways a page can be acknowledged without logging in; the timeline entry names it. */
export type PageAckWay = 'link' | 'sms' | 'voice' | 'push';

export type PageAckResult =
  | { outcome: 'acknowledged'; incident: { id: string; number: number; title: string } }
  | {
      /** Someone took the incident first: nothing changed. */
      outcome: 'already';
      status: IncidentStatus;
      /** Who acknowledged (or resolved) it, from the timeline; null when that is not known. */
      by: string | null;
      incident: { id: string; number: number; title: string };
    }
  | { outcome: 'invalid' };

/**
 * Acknowledges as the paged person, through the same status change as a click in the UI: the timeline
 * entry names them and the way (`via`), and the escalation stops in the same transaction.
 */
export async function acknowledgeAs(
  ctx: ServiceContext,
  person: { id: string; name: string },
  incident: { id: string; number: number; title: string; status: IncidentStatus },
  via: PageAckWay,
): Promise<PageAckResult> {
  const ref = { id: incident.id, number: incident.number, title: incident.title };
  if (incident.status !== 'triggered') return already(ctx, incident.status, ref);
  try {
    const updated = await updateIncident(
      ctx,
      { type: 'user', id: person.id, name: person.name },
      { id: incident.id },
      { status: 'acknowledged' },
      { via },
    );
    if (updated.status !== 'acknowledged') return already(ctx, updated.status, ref);
    // Two people acknowledging in the same instant both read "triggered" and both ask; the incident's row
    // lock lets one change it and the other's change is a no-op. The timeline entry names the winner.
    const change = await timeline.findLastStatusChange(ctx.sql, incident.id, 'acknowledged');
    if (change?.actor_id !== person.id) return already(ctx, 'acknowledged', ref, change?.actor_name);
    ctx.logger.info({ incident_id: incident.id, user_id: person.id, via }, 'page acknowledged');
    return { outcome: 'acknowledged', incident: ref };
  } catch (error) {
    // Resolved between the read and the change: nothing to acknowledge.
    if (error instanceof AppError && error.code === 'invalid_transition') {
      return already(ctx, 'resolved', ref);
    }
    throw error;
  }
}

/** Taken before this acknowledgement: by whom, as the timeline says. */
async function already(
  ctx: ServiceContext,
  status: IncidentStatus,
  incident: { id: string; number: number; title: string },
  by?: string | null,
): Promise<PageAckResult> {
  const name =
    by !== undefined ? by : (await timeline.findLastStatusChange(ctx.sql, incident.id, status))?.actor_name;
  return { outcome: 'already', status, by: name ?? null, incident };
}
