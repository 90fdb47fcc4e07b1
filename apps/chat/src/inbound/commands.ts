import { chatPlatformsOn } from '@firebreak/config';
import { AddNoteInput, AppError, CreateIncidentInput } from '@firebreak/schema';
import {
  addNote,
  type ChannelIncident,
  type ChatIdentity,
  type ChatProfileLookup,
  createIncident,
  findIncidentByChannel,
  identifyChatUser,
  readIncidentStatus,
  type ServiceContext,
} from '@firebreak/services';
import type { ChatPlatformName, InboundCommand } from '../platform/chat-platform';
import { helpText, parseCommandText } from './command-text';
import type { ChatInboundDeps } from './deps';
import { mayChangeIncidents, mayReadIncidents } from './identity';
import { isUserFacing, runIncidentAction } from './incident-ops';
import { type CommandReply, ephemeral, escapeMrkdwn, inChannel, incidentLabel, incidentUrl } from './replies';
import { statusText } from './status-text';

/** Slash commands default to high: serious enough to page, and nobody types a severity in a hurry. */
const CHAT_INCIDENT_SEVERITY = 'high';

export interface CommandEnv {
  ctx: ServiceContext;
  config: ChatInboundDeps['config'];
  /** Where the command was typed: people and channels are named by that platform's ids. */
  platform: ChatPlatformName;
  lookup: ChatProfileLookup;
}

/**
 * `/incident …` (docs/integrations/slack.md#commands). Everything here is database work, well inside
 * Slack's 3 seconds; what the channel must hear goes through the outbox, so the answer is the reply itself.
 */
export async function runCommand(env: CommandEnv, request: InboundCommand): Promise<CommandReply> {
  const { command, user: who } = request;
  const parsed = parseCommandText(request.text);
  switch (parsed.kind) {
    case 'help':
      return ephemeral(helpText(command));
    case 'unknown':
      return ephemeral(
        `\`${command} ${escapeMrkdwn(parsed.word)}\` is not a command I know.\n${helpText(command)}`,
      );
    case 'new': {
      if (!parsed.title) return ephemeral(`Give the incident a title: \`${command} new &lt;title&gt;\`.`);
      const input = CreateIncidentInput.safeParse({ title: parsed.title, severity: CHAT_INCIDENT_SEVERITY });
      if (!input.success)
        return ephemeral(
          `That title cannot be used: ${escapeMrkdwn(input.error.issues[0]?.message ?? 'invalid')}.`,
        );
      return openIncident(
        env,
        await identifyChatUser(env.ctx, who, env.lookup, env.platform),
        who.id,
        input.data,
      );
    }
  }
  // The rest act on the incident whose channel this is.
  const incident = request.channelId
    ? await findIncidentByChannel(env.ctx, request.channelId, env.platform)
    : undefined;
  if (!incident) {
    const typed = escapeMrkdwn(request.text.trim());
    return ephemeral(
      `This channel is not an incident channel. Use \`${command} ${typed}\` inside the incident's own ` +
        `channel (#inc-&lt;number&gt;-…), or open one with \`${command} new &lt;title&gt;\`.`,
    );
  }
  if (parsed.kind === 'note' && !parsed.text) {
    return ephemeral(`Write the note after the command: \`${command} note &lt;text&gt;\`.`);
  }
  const identity = await identifyChatUser(env.ctx, who, env.lookup, env.platform);
  // The latest entries include what the channel never hears (AI summaries, chat failures, post-mortem
  // changes): only for Firebreak users, as the web UI and the API.
  if (parsed.kind === 'status') {
    const permission = mayReadIncidents(identity);
    if (!permission.ok) return ephemeral(permission.reason);
    const view = await readIncidentStatus(env.ctx, incident.id);
    return ephemeral(view ? statusText(view) : `${incidentLabel(incident.number)} no longer exists.`);
  }
  if (parsed.kind === 'note') return addChatNote(env.ctx, identity, incident, parsed.text);
  // Typed by hand: the next tier, whichever it is (only the card's button names the tier it showed).
  const escalation = { chat: chatPlatformsOn(env.config).length > 0 };
  return ephemeral((await runIncidentAction(env.ctx, identity, incident, parsed.kind, escalation)).text);
}

async function openIncident(
  env: CommandEnv,
  identity: ChatIdentity,
  chatUserId: string,
  input: CreateIncidentInput,
): Promise<CommandReply> {
  const permission = mayChangeIncidents(identity);
  if (!permission.ok) return ephemeral(permission.reason);
  const incident = await createIncident(env.ctx, identity.actor, input, 'chat');
  const label = incidentLabel(incident.number);
  const link = `<${incidentUrl(env.config, incident.number)}|${label}>`;
  const channelNote = chatPlatformsOn(env.config).length > 0 ? ' Its channel follows in a moment.' : '';
  return inChannel(
    `:rotating_light: ${link} opened by <@${chatUserId}>: *${escapeMrkdwn(incident.title)}* ` +
      `(severity ${incident.severity}).${channelNote}`,
  );
}

async function addChatNote(
  ctx: ServiceContext,
  identity: ChatIdentity,
  incident: ChannelIncident,
  text: string,
): Promise<CommandReply> {
  const label = incidentLabel(incident.number);
  const permission = mayChangeIncidents(identity);
  if (!permission.ok) return ephemeral(permission.reason);
  const input = AddNoteInput.safeParse({ text });
  if (!input.success)
    return ephemeral(
      `That note cannot be added: ${escapeMrkdwn(input.error.issues[0]?.message ?? 'invalid')}.`,
    );
  try {
    await addNote(ctx, identity.actor, { id: incident.id }, input.data);
  } catch (error) {
    if (error instanceof AppError && isUserFacing(error))
      return ephemeral(`${label}: ${escapeMrkdwn(error.message)}`);
    throw error;
  }
  return ephemeral(`Note added to ${label}.`);
}
