// Test-only: the outbound chat adapter on real PostgreSQL and Redis, talking to the fake chat API
// (packages/testing), with the outbox relay that feeds it.
import { chat, users } from '@firebreak/db';
import { createTestRuntime, type TestRuntime } from '@firebreak/runtime/testing';
import { type AlertInput, CreateEscalationPolicyInput, type Incident } from '@firebreak/schema';
import { createEscalationPolicy, createIncident, setDefaultEscalationPolicy } from '@firebreak/services';
import { type FakeChatApi, type FakeChatApiOptions, startFakeChatApi, waitFor } from '@firebreak/testing';
import { type RunningWorker, startWorker } from '@firebreak/worker';
// The chat app's package entry is its HTTP app; the worker is reached by path until it is exported.
import { type RunningChatWorker, startChatWorker } from '../../apps/chat/src/outbound/worker';

export const PUBLIC_URL = 'https://firebreak.example.test';
export const actor = { type: 'user' as const, name: 'tester' };

export interface ChatHarness {
  fake: FakeChatApi;
  runtime: TestRuntime;
  worker: RunningWorker;
  /** Starts the chat consumer (when the harness was made with `startChat: false`). */
  startChat(): void;
  open(title?: string, extra?: { commander_id?: string; description?: string }): Promise<Incident>;
  /** Waits until the incident's channel exists and its card is posted; returns the channel id. */
  channelOf(incidentId: string): Promise<string>;
  /** Waits until the outbox is relayed and the chat queue has nothing waiting, running or delayed. */
  idle(): Promise<void>;
  failures(incidentId: string): Promise<Array<{ operation: string; code: string }>>;
  stop(): Promise<void>;
}

export async function startChatHarness(
  options: {
    fake?: FakeChatApiOptions;
    chatOff?: boolean;
    startChat?: boolean;
    /** More environment (an AI provider, for questions asked of the bot). */
    env?: Record<string, string>;
  } = {},
): Promise<ChatHarness> {
  const fake = await startFakeChatApi(options.fake);
  const env = options.chatOff ? {} : { CHAT_BOT_TOKEN: fake.botToken, CHAT_API_URL: fake.url };
  const runtime = await createTestRuntime({ env: { ...env, PUBLIC_URL, ...options.env } });
  const worker = await startWorker(runtime.ctx, {
    redis: runtime.redisConfig,
    ai: runtime.config.ai,
    intervalMs: 200,
  });
  let chatWorker: RunningChatWorker | undefined;
  const startChat = () => {
    chatWorker ??= startChatWorker(runtime.ctx, {
      redis: runtime.redisConfig,
      chat: runtime.config.chat,
      teams: runtime.config.teams,
      publicUrl: PUBLIC_URL,
    });
  };
  if (options.startChat !== false) startChat();
  const incidentRow = (id: string) => chat.findChatIncident(runtime.sql, id, 'slack');
  return {
    fake,
    runtime,
    worker,
    startChat,
    open: (title = 'Checkout is down', extra = {}) =>
      createIncident(runtime.ctx, actor, { title, severity: 'critical', ...extra }),
    channelOf: async (incidentId) =>
      waitFor(
        async () => {
          const row = await incidentRow(incidentId);
          return row?.chat_card_ts ? row.chat_channel_id! : undefined;
        },
        { what: 'channel and card', timeoutMs: 20_000 },
      ),
    idle: async () => {
      await waitFor(
        async () => {
          await worker.tick();
          const [outbox] = await runtime.sql<{ n: number }[]>`
            select count(*)::int as n from outbox where sent_at is null`;
          const depths = (await worker.queues.depths()).chat;
          return outbox!.n + depths.waiting + depths.active + depths.delayed === 0;
        },
        { what: 'chat queue drained', timeoutMs: 20_000 },
      );
    },
    failures: async (incidentId) => {
      const rows = await runtime.sql<{ data: { operation: string; code: string } }[]>`
        select data from timeline_entries where incident_id = ${incidentId} and type = 'chat_failed' order by seq`;
      return rows.map((row) => row.data);
    },
    stop: async () => {
      await chatWorker?.stop();
      await worker.stop();
      await runtime.cleanup();
      await fake.close();
    },
  };
}

/** A user with a chat id (or none), as the escalation targets and commanders of these tests. */
export async function chatUser(runtime: TestRuntime, name: string, slackUserId: string | null) {
  const stamp = `${Date.now()}-${Math.floor(Math.random() * 1e6)}`;
  return users.insertUser(runtime.sql, {
    email: `${name.toLowerCase()}-${stamp}@example.test`,
    name,
    role: 'member',
    slackUserId,
  });
}

/** One tier paging these users, as the installation's default policy. */
export async function defaultPolicyPaging(runtime: TestRuntime, userIds: string[]): Promise<void> {
  const policy = await createEscalationPolicy(
    runtime.ctx,
    CreateEscalationPolicyInput.parse({
      name: `Page ${Date.now()}-${Math.random()}`,
      tiers: [{ target_type: 'users', user_ids: userIds, timeout_seconds: 3600 }],
    }),
  );
  await setDefaultEscalationPolicy(runtime.ctx, policy.id);
}

/** Texts of the messages in a channel of the fake, oldest first. */
export function texts(fake: FakeChatApi, channelId: string): string[] {
  return fake.messages(channelId).map((m) => m.text ?? '');
}

/** A firing critical alert as a webhook's parser hands it over: the default rule opens an incident. */
export function firingAlert(externalId: string): AlertInput {
  return {
    title: `Disk full ${externalId}`,
    description: null,
    severity: 'critical',
    status: 'firing',
    externalId,
    fingerprint: null,
    source: null,
    labels: {},
    annotations: {},
    startedAt: new Date(),
    endedAt: null,
  };
}
