import { AppError } from '@firebreak/schema';
import {
  type ChannelIncident,
  type ChatIdentity,
  escalateNow,
  type ServiceContext,
  updateIncident,
} from '@firebreak/services';
import { mayChangeIncidents } from './identity';
import { escapeMrkdwn, incidentLabel } from './replies';

/** What the card's buttons and the matching commands do. */
export type IncidentAction = 'acknowledge' | 'resolve' | 'lead' | 'escalate';

export interface ActionOutcome {
  /** done: the incident changed; unchanged: it already was so; refused: nothing happened. */
  kind: 'done' | 'unchanged' | 'refused';
  /** For the user who asked (the channel hears about changes from the timeline, through the outbox). */
  text: string;
}

/**
 * What an escalation needs beyond the incident: whether chat is on (an acknowledged incident is paged
 * through it only) and, from the card's button, the tier its card showed as next (a tier paged since
 * answers "already paged" rather than paging the one after it).
 */
export interface EscalationChoice {
  chat: boolean;
  expectedTier?: number | undefined;
}

/**
 * One button click or command on one incident, as the chat user. Refusals the user can act on (a
 * resolved incident, a viewer's role) become text; anything else is the caller's to report.
 */
export async function runIncidentAction(
  ctx: ServiceContext,
  identity: ChatIdentity,
  incident: ChannelIncident,
  action: IncidentAction,
  escalation: EscalationChoice,
): Promise<ActionOutcome> {
  const label = incidentLabel(incident.number);
  const permission = mayChangeIncidents(identity);
  if (!permission.ok) return { kind: 'refused', text: permission.reason };
  try {
    switch (action) {
      case 'acknowledge':
        if (incident.status === 'acknowledged') return unchanged(`${label} is already acknowledged.`);
        await updateIncident(ctx, identity.actor, { id: incident.id }, { status: 'acknowledged' });
        return { kind: 'done', text: `You acknowledged ${label}.` };
      case 'resolve':
        if (incident.status === 'resolved') return unchanged(`${label} is already resolved.`);
        await updateIncident(ctx, identity.actor, { id: incident.id }, { status: 'resolved' });
        return { kind: 'done', text: `You resolved ${label}.` };
      case 'escalate': {
        const escalated = await escalateNow(ctx, identity.actor, { id: incident.id }, escalation);
        return {
          kind: 'done',
          text: `You escalated ${label}: tier ${escalated.escalated_to_tier} is being paged.`,
        };
      }
      case 'lead': {
        const user = identity.user;
        if (!user) {
          return {
            kind: 'refused',
            text: `Firebreak could not look you up in the chat workspace just now, so it cannot make you lead of ${label}. Try again in a minute.`,
          };
        }
        if (incident.commander_id === user.id) return unchanged(`You are already the lead of ${label}.`);
        await updateIncident(ctx, identity.actor, { id: incident.id }, { commander_id: user.id });
        return { kind: 'done', text: `You are now the lead of ${label}.` };
      }
    }
  } catch (error) {
    if (error instanceof AppError && isUserFacing(error)) {
      return { kind: 'refused', text: `${label}: ${escapeMrkdwn(error.message)}` };
    }
    throw error;
  }
}

/** Refusals that say something about the incident (invalid transition, sealed timeline, gone). */
export function isUserFacing(error: AppError): boolean {
  return [
    'invalid_transition',
    'conflict',
    'not_found',
    'validation_failed',
    'incident_not_open',
    'no_next_tier',
    'no_reachable_target',
  ].includes(error.code);
}

const unchanged = (text: string): ActionOutcome => ({ kind: 'unchanged', text });
