import { type FakeChatApi, startFakeChatApi } from '@firebreak/testing';
import { withSql } from './service';
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

/**
 * Chat work PostgreSQL says these incidents are still owed: a channel or card not there yet, or a note
 * or escalation mention not posted (docs/integrations/slack.md#recovery).
 */
export function chatWorkOwed(databaseUrl: string, incidentIds: string[]): Promise<number> {
  return withSql(databaseUrl, async (sql) => {
    const [row] = await sql<{ n: number }[]>`
      select (select count(*) from incidents i
              where i.id = any(${incidentIds})
                and not exists (select 1 from chat_channels c
                                where c.incident_id = i.id and c.platform = 'slack' and c.card_id is not null))
           + (select count(*) from timeline_entries t
              where t.incident_id = any(${incidentIds}) and t.type in ('message', 'escalation_triggered')
                and not exists (select 1 from chat_posts p where p.entry_id = t.id and p.platform = 'slack'))
           as n`;
    return Number(row!.n);
  });
}

/** What the fake chat received, counted so that anything missing or doubled shows. */
export function chatDelivered(
  chat: FakeChatApi,
  notes: string[],
): { channels: number; doubledChannels: number; cards: number; notesOnce: number } {
  const created = [...channelsByIncident(chat).values()];
  const channels = chat.channels().filter((c) => c.name.startsWith('inc-'));
  const isCard = (blocks: unknown) => JSON.stringify(blocks ?? []).includes('incident_summary');
  const texts = channels.flatMap((c) => c.messages.map((m) => m.text ?? ''));
  return {
    channels: created.length,
    doubledChannels: created.filter((times) => times.length > 1).length,
    // One card per channel, never two.
    cards: channels.filter((c) => c.messages.filter((m) => isCard(m.blocks)).length === 1).length,
    notesOnce: notes.filter((note) => texts.filter((text) => text.includes(note)).length === 1).length,
  };
}
