import { randomUUID } from 'node:crypto';
import type { Actor } from '@firebreak/schema';
import type { Queryable } from './client';

/**
 * A person's message in an incident channel as a `chat_message` entry. The index of migration 0023
 * keeps one entry per incident and message `ts`: a redelivered event inserts nothing (false).
 */
export async function insertChatMessageEntry(
  sql: Queryable,
  entry: {
    incidentId: string;
    actor: Actor;
    data: { text: string; chat_user_id: string; ts: string; channel_id: string };
    at: Date;
  },
): Promise<boolean> {
  const rows = await sql`
    insert into timeline_entries (id, incident_id, type, actor_type, actor_id, actor_name, data, created_at)
    values (${randomUUID()}, ${entry.incidentId}, 'chat_message', ${entry.actor.type}, ${entry.actor.id ?? null},
            ${entry.actor.name ?? null}, ${sql.json(entry.data)}, ${entry.at})
    on conflict (incident_id, (data ->> 'ts')) where type = 'chat_message' do nothing
    returning id`;
  return rows.length > 0;
}
