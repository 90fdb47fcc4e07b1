import { type FakeChatApi, startFakeChatApi } from '@firebreak/testing';
import type { Defer } from './types';

/** The fake chat API, and the server environment that points Firebreak at it. */
export async function startChat(
  defer: Defer,
  latencyMs = 0,
): Promise<{ chat: FakeChatApi; env: Record<string, string> }> {
  const chat = await startFakeChatApi({ latencyMs });
  defer(() => chat.close());
  return {
    chat,
    env: {
      CHAT_BOT_TOKEN: chat.botToken,
      CHAT_API_URL: chat.url,
      CHAT_SIGNING_SECRET: 'drill-signing-secret',
    },
  };
}

/** When the fake created each incident's channel `inc-<number>-…`, by incident number (every channel of it). */
export function channelsByIncident(chat: FakeChatApi): Map<number, Date[]> {
  const created = new Map<number, Date[]>();
  for (const call of chat.callsTo('conversations.create')) {
    if (!call.response?.ok) continue;
    const number = Number(/^inc-(\d+)-/.exec(String(call.args.name))?.[1]);
    if (Number.isFinite(number)) created.set(number, [...(created.get(number) ?? []), call.time]);
  }
  return created;
}
