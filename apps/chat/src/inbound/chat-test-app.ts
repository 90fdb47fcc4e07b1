// The chat route tests' own chat app on a fresh database, its chat API pointed at a fake Slack.
// Requests are signed the way Slack signs them; what a user then sees of an incident is read through
// the same service verbs the API answers with.
import type { Env } from '@firebreak/config';
import { oneUserPerRole, startTestApp, type TestRuntime, type TestUser } from '@firebreak/runtime/testing';
import { CreateIncidentInput } from '@firebreak/schema';
import { createIncident, getIncident, getTimeline, parseIncidentRef } from '@firebreak/services';
import {
  type BlockActionInput,
  type FakeChatApi,
  type FakeChatApiOptions,
  type JsonBody,
  type SignedChatRequest,
  type SlashCommandFields,
  signedBlockActions,
  signedEvent,
  signedSlashCommand,
  startFakeChatApi,
} from '@firebreak/testing';
import { createApp } from '../app';

export const SIGNING_SECRET = 'chat-inbound-test-signing-secret';

export interface ChatTestApp {
  runtime: TestRuntime;
  fake: FakeChatApi;
  admin: TestUser;
  /** POSTs a signed (or otherwise prepared) request to a chat path. */
  send(path: string, request: SignedChatRequest): Promise<Response>;
  command(fields: Partial<SlashCommandFields>): Promise<{ status: number; body: JsonBody }>;
  click(input: BlockActionInput): Promise<{ status: number; text: string }>;
  event(body: Record<string, unknown>): Promise<Response>;
  /** Opens an incident as the admin, bound to a chat channel as the outbound side would. */
  incidentInChannel(channelId: string, title?: string): Promise<JsonBody>;
  /** The incident (by id or number) as `GET /api/v1/incidents/:id` shows it. */
  incident(ref: string | number): Promise<JsonBody>;
  /** Its timeline entries as `GET /api/v1/incidents/:id/timeline` shows them. */
  timeline(ref: string | number): Promise<JsonBody[]>;
  cleanup(): Promise<void>;
}

/** What a JSON response would carry: dates as ISO strings, no undefined fields. */
const asJson = (value: unknown): JsonBody => JSON.parse(JSON.stringify(value));

export async function startChatTestApp(
  options: { env?: Env; fake?: FakeChatApiOptions } = {},
): Promise<ChatTestApp> {
  const fake = await startFakeChatApi(options.fake);
  const {
    runtime,
    app,
    users: { admin },
  } = await startTestApp(createApp, {
    env: {
      CHAT_BOT_TOKEN: fake.botToken,
      CHAT_SIGNING_SECRET: SIGNING_SECRET,
      CHAT_API_URL: fake.url,
      PUBLIC_URL: 'https://firebreak.example.test',
      ...options.env,
    },
    users: { admin: oneUserPerRole.admin },
  });
  const send = async (path: string, request: SignedChatRequest) =>
    app.request(path, { method: 'POST', body: request.body, headers: request.headers });
  return {
    runtime,
    fake,
    admin,
    send,
    command: async (fields) => {
      const res = await send('/api/v1/chat/commands', signedSlashCommand(SIGNING_SECRET, fields));
      const text = await res.text();
      return { status: res.status, body: text ? JSON.parse(text) : null };
    },
    click: async (input) => {
      const res = await send('/api/v1/chat/actions', signedBlockActions(SIGNING_SECRET, input));
      return { status: res.status, text: await res.text() };
    },
    event: (body) => send('/api/v1/chat/events', signedEvent(SIGNING_SECRET, body)),
    incidentInChannel: async (channelId, title = 'Database primary down') => {
      const actor = { type: 'user' as const, id: admin.id, name: oneUserPerRole.admin.name };
      const input = CreateIncidentInput.parse({ title, severity: 'critical' });
      const incident = await createIncident(runtime.ctx, actor, input);
      await runtime.sql`
        insert into chat_channels (incident_id, platform, channel_id, channel_name)
        values (${incident.id}, 'slack', ${channelId}, ${`inc-${incident.number}`})`;
      return asJson(incident);
    },
    incident: async (ref) => asJson(await getIncident(runtime.ctx, parseIncidentRef(String(ref)))),
    timeline: async (ref) => asJson(await getTimeline(runtime.ctx, parseIncidentRef(String(ref)))),
    cleanup: async () => {
      await runtime.cleanup();
      await fake.close();
    },
  };
}

let channelCounter = 0;
/** A chat channel id no other test in the file uses. */
export const newChannelId = () => `C0TEST${String(++channelCounter).padStart(4, '0')}`;
