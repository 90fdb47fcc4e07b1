import type { Queryable } from './client';

/**
 * The Slack users an incident's Slack channel should have and has not been asked to take yet: its
 * commander and everyone its escalation steps paged (each step's `targets`), by Slack id. The bot
 * itself is left to the caller (Slack refuses `cant_invite_self`). Slack only: a Teams incident channel
 * is a standard channel, which every member of its team is in already.
 */
export async function listOwedInvitees(sql: Queryable, incidentId: string): Promise<string[]> {
  const rows = await sql<{ slack_user_id: string }[]>`
    select distinct s.slack_user_id from (
      select u.slack_user_id, 0 as rank from incidents i join users u on u.id = i.commander_id
      where i.id = ${incidentId}
      union all
      select t ->> 'slack_user_id', 1 from timeline_entries e
        cross join lateral jsonb_array_elements(
          case when jsonb_typeof(e.data -> 'targets') = 'array' then e.data -> 'targets' else '[]'::jsonb end
        ) t
      where e.incident_id = ${incidentId} and e.type = 'escalation_triggered'
    ) s
    where s.slack_user_id is not null and s.slack_user_id <> ''
      and not exists (select 1 from chat_channel_invites c
                      where c.incident_id = ${incidentId} and c.platform = 'slack'
                        and c.chat_user_id = s.slack_user_id)
    order by s.slack_user_id`;
  return rows.map((row) => row.slack_user_id);
}

/** One invite asked for (`error` null: the person is in the channel); it is not asked again. */
export async function recordInvite(
  sql: Queryable,
  invite: { incidentId: string; slackUserId: string; channelId: string; error: string | null; at: Date },
): Promise<void> {
  await sql`
    insert into chat_channel_invites (platform, incident_id, chat_user_id, channel_id, error, invited_at)
    values ('slack', ${invite.incidentId}, ${invite.slackUserId}, ${invite.channelId}, ${invite.error},
            ${invite.at})
    on conflict (incident_id, platform, chat_user_id) do nothing`;
}
