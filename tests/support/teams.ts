// Test-only: Firebreak with Microsoft Teams on (and Slack too, when asked), its chat worker talking to
// the fakes of Microsoft's services (packages/testing), on real PostgreSQL and Redis.
import { randomUUID } from 'node:crypto';
import { chat, users } from '@firebreak/db';
import type { TestRuntime } from '@firebreak/runtime/testing';
import {
  type FakeActivity,
  type FakeTeams,
  type FakeTeamsOptions,
  startFakeTeams,
  waitFor,
} from '@firebreak/testing';
import { type ChatHarness, startChatHarness } from './chat-outbound';

export interface TeamsHarness extends ChatHarness {
  teams: FakeTeams;
  /** Waits until the incident's Teams channel exists and its card is posted; the channel's id. */
  teamsChannelOf(incidentId: string): Promise<string>;
  /** The card's id (the first message of the incident's thread) once posted. */
  teamsCardOf(incidentId: string): Promise<string>;
  /** The messages of the incident's thread after the card, oldest first. */
  threadReplies(channelId: string, cardId: string): FakeActivity[];
}

/** Teams on; Slack too when `slack` is set (both platforms side by side). */
export async function startTeamsHarness(
  options: { slack?: boolean; fakes?: FakeTeamsOptions; startChat?: boolean } = {},
): Promise<TeamsHarness> {
  const teams = await startFakeTeams(options.fakes);
  const h = await startChatHarness({
    chatOff: !options.slack,
    env: teams.env,
    ...(options.startChat === false ? { startChat: false } : {}),
  });
  const teamsRow = (id: string) => chat.findChatIncident(h.runtime.sql, id, 'teams');
  const teamsCardOf = (incidentId: string) =>
    waitFor(async () => (await teamsRow(incidentId))?.chat_card_ts ?? undefined, {
      what: 'Teams card',
      timeoutMs: 20_000,
    });
  return {
    ...h,
    teams,
    teamsChannelOf: async (incidentId) => {
      await teamsCardOf(incidentId);
      return (await teamsRow(incidentId))!.chat_channel_id!;
    },
    teamsCardOf,
    threadReplies: (channelId, cardId) =>
      teams.connector.activitiesIn(`${channelId};messageid=${cardId}`).filter((a) => a.id !== cardId),
    stop: async () => {
      await h.stop();
      await teams.close();
    },
  };
}

/** A user known to Teams by their Entra object id (and to Slack, when given a Slack id). */
export async function teamsUser(
  runtime: TestRuntime,
  name: string,
  teamsUserId: string = randomUUID(),
  slackUserId: string | null = null,
) {
  return users.insertUser(runtime.sql, {
    email: `${name.toLowerCase()}-${randomUUID().slice(0, 8)}@example.test`,
    name,
    role: 'member',
    slackUserId,
    teamsUserId,
  });
}

/** The Adaptive Card of a posted activity. */
export function adaptiveCardOf(activity: FakeActivity | undefined): {
  body: Array<Record<string, unknown>>;
  actions: Array<{ type: string; title: string; data?: { firebreak_action: string; value: string } }>;
} {
  return activity?.attachments?.[0]?.content as ReturnType<typeof adaptiveCardOf>;
}
