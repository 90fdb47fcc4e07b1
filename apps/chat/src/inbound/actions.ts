import { chatPlatformsOn } from '@firebreak/config';
import { toAppError } from '@firebreak/http';
import type { Logger } from '@firebreak/logger';
import { AppError } from '@firebreak/schema';
import { getIncident, identifyChatUser, parseIncidentRef } from '@firebreak/services';
import type { InboundCardAction } from '../platform/chat-platform';
import type { CommandEnv } from './commands';
import { type IncidentAction, isUserFacing, runIncidentAction } from './incident-ops';
import { escapeMrkdwn, replyLater } from './replies';

/** The card's buttons (the outbound side builds the card with these `action_id`s). */
export const CARD_ACTIONS: Record<string, IncidentAction> = {
  incident_acknowledge: 'acknowledge',
  incident_lead: 'lead',
  incident_escalate: 'escalate',
  incident_resolve: 'resolve',
};

/**
 * A button click. The HTTP answer is only the chat service's acknowledgement (200, empty), so the
 * change is made first and whatever the user must be told (a refusal, "already acknowledged") goes
 * back by `tell` — Slack's `response_url` by default — without holding up the answer. Success needs no
 * reply: the change writes a timeline entry, and the card is updated from that (outbound side).
 */
export async function runCardAction(
  env: CommandEnv,
  logger: Logger,
  click: InboundCardAction,
  tell: (text: string) => void = (text) => void replyLater(logger, click.replyUrl, text),
): Promise<void> {
  const { user, actionId, value } = click;
  const action = CARD_ACTIONS[actionId];
  if (!action) {
    logger.info({ action_id: actionId }, 'chat: interaction ignored');
    return;
  }
  const { ref, expectedTier } = parseButtonValue(value);
  try {
    const incident = await getIncident(env.ctx, parseIncidentRef(ref));
    const identity = await identifyChatUser(env.ctx, user, env.lookup, env.platform);
    const outcome = await runIncidentAction(
      env.ctx,
      identity,
      {
        id: incident.id,
        number: incident.number,
        title: incident.title,
        status: incident.status,
        commander_id: incident.commander?.id ?? null,
      },
      action,
      { chat: chatPlatformsOn(env.config).length > 0, expectedTier },
    );
    if (outcome.kind !== 'done') tell(outcome.text);
  } catch (error) {
    if (error instanceof AppError && isUserFacing(error)) {
      tell(`That button no longer works: ${escapeMrkdwn(error.message)}`);
      return;
    }
    const appError = toAppError(error);
    logger.error({ err: error, action_id: actionId }, 'chat action failed');
    tell(`Firebreak could not do that: ${escapeMrkdwn(appError.message)}`);
  }
}

/**
 * A button's value: the incident id, and for Escalate the tier the card showed as next (`<id>:<tier>`,
 * card.ts), so a double click or two people at once page that tier once and are told so after.
 */
export function parseButtonValue(value: string): { ref: string; expectedTier?: number } {
  const match = /^(.+):([1-9]\d{0,3})$/.exec(value);
  if (!match) return { ref: value };
  return { ref: match[1]!, expectedTier: Number(match[2]) };
}
