// The chat tests' own Firebreak: the embedded server's routes plus the inbound chat routes on a fresh
// database, its chat API pointed at a fake Slack. Requests are signed the way Slack signs them.
import type { Env } from '@firebreak/config';
import {
  createTestRuntime,
  createTestUser,
  type TestRuntime,
  type TestUser,
} from '@firebreak/runtime/testing';
import { createServerApp } from '@firebreak/server';
import {
  type BlockActionInput,
  bodyOf,
  type FakeChatApi,
  type FakeChatApiOptions,
  type JsonBody,
  type SignedChatRequest,
  type SlashCommandFields,
  signedBlockActions,
  signedEvent,
  signedSlashCommand,
  startFakeChatApi,
  type TestClient,
  testClient,
} from '@firebreak/testing';

export const SIGNING_SECRET = 'chat-inbound-test-signing-secret';

export interface ChatTestServer {
  runtime: TestRuntime;
  fake: FakeChatApi;
  api: TestClient;
  admin: TestUser;
  /** POSTs a signed (or otherwise prepared) request to a chat path. */
  send(path: string, request: SignedChatRequest): Promise<Response>;
  command(fields: Partial<SlashCommandFields>): Promise<{ status: number; body: JsonBody }>;
  click(input: BlockActionInput): Promise<{ status: number; text: string }>;
  event(body: Record<string, unknown>): Promise<Response>;
  /** Opens an incident through the API as the admin, bound to a chat channel as the outbound side would. */
  incidentInChannel(channelId: string, title?: string): Promise<JsonBody>;
  get(path: string): Promise<JsonBody>;
  cleanup(): Promise<void>;
}

export async function startChatTestServer(
  options: { env?: Env; fake?: FakeChatApiOptions } = {},
): Promise<ChatTestServer> {
  const fake = await startFakeChatApi(options.fake);
  const runtime = await createTestRuntime({
    env: {
      CHAT_BOT_TOKEN: fake.botToken,
      CHAT_SIGNING_SECRET: SIGNING_SECRET,
      CHAT_API_URL: fake.url,
      PUBLIC_URL: 'https://firebreak.example.test',
      ...options.env,
    },
  });
  const deps = { ctx: runtime.ctx, ready: runtime.ready, config: runtime.config };
  const app = createServerApp(deps);
  // Until the server mounts them itself; once it does, its registration answers first (same routes).
  const api = testClient(app);
  const admin = await createTestUser(runtime, 'admin', 'Ada Admin');
  const send = (path: string, request: SignedChatRequest) =>
    api('POST', path, { body: request.body, headers: request.headers });
  const get = async (path: string) => bodyOf(await api('GET', path, { token: admin.token }));
  return {
    runtime,
    fake,
    api,
    admin,
    send,
    get,
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
      const res = await api('POST', '/api/v1/incidents', {
        token: admin.token,
        body: { title, severity: 'critical' },
      });
      const incident = await bodyOf(res);
      await runtime.sql`update incidents set chat_channel_id = ${channelId}, chat_channel_name = ${`inc-${incident.number}`}
                        where id = ${incident.id}`;
      return incident;
    },
    cleanup: async () => {
      await runtime.cleanup();
      await fake.close();
    },
  };
}

let channelCounter = 0;
/** A chat channel id no other test in the file uses. */
export const newChannelId = () => `C0TEST${String(++channelCounter).padStart(4, '0')}`;
