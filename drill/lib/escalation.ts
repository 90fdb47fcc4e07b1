import { DEFAULT_CHAT_USERS, type FakeChatApi } from '@firebreak/testing';
import { api, withSql } from './service';

type Service = { url: string; token: string };

/** The two chat users each tier pages (they have `slack_user_id`s the fake chat knows). */
export const [TIER_1_USER, TIER_2_USER] = DEFAULT_CHAT_USERS as [
  (typeof DEFAULT_CHAT_USERS)[0],
  (typeof DEFAULT_CHAT_USERS)[0],
];

/** A two-tier policy (one chat user per tier, `timeoutSeconds` each), made the installation default. */
export async function defaultTwoTierPolicy(service: Service, timeoutSeconds: number): Promise<void> {
  const people = await Promise.all(
    [TIER_1_USER, TIER_2_USER].map((user) =>
      api(service, 'POST', '/api/v1/users', {
        email: user.email,
        name: user.realName,
        role: 'member',
        slack_user_id: user.id,
      }),
    ),
  );
  const policy = await api(service, 'POST', '/api/v1/escalation-policies', {
    name: 'Drill: two tiers',
    tiers: people.map((person) => ({
      target_type: 'users',
      user_ids: [person.id],
      timeout_seconds: timeoutSeconds,
    })),
  });
  await api(service, 'PATCH', '/api/v1/settings', { default_escalation_policy_id: policy.id });
}

/** Opens `count` incidents through the API, spread over the given services in turn. */
export async function openIncidents(services: Service[], count: number, title: string): Promise<string[]> {
  const incidents = await Promise.all(
    Array.from({ length: count }, (_, i) =>
      api(services[i % services.length]!, 'POST', '/api/v1/incidents', {
        title: `${title} ${i}`,
        severity: 'high',
      }),
    ),
  );
  return incidents.map((incident) => String(incident.id));
}

export interface StepRow {
  incident_id: string;
  round: number;
  tier: number;
  due_at: Date;
  late_ms: number;
}

/** Every escalation step fired so far for these incidents (tier 0 = the policy's first tier). */
export function firedSteps(databaseUrl: string, incidentIds: string[]): Promise<StepRow[]> {
  return withSql(
    databaseUrl,
    (sql) => sql<StepRow[]>`
      select incident_id, round, tier, due_at, extract(epoch from (fired_at - due_at)) * 1000 as late_ms
      from escalation_steps where incident_id = any(${incidentIds})`,
  ).then((rows) => rows.map((row) => ({ ...row, late_ms: Number(row.late_ms) })));
}

/** The `escalation_triggered` timeline entries of these incidents: one per page, never two. */
export function escalationEntries(databaseUrl: string, incidentIds: string[]): Promise<number> {
  return withSql(databaseUrl, async (sql) => {
    const [row] = await sql<{ n: number }[]>`
      select count(*)::int as n from timeline_entries
      where incident_id = any(${incidentIds}) and type = 'escalation_triggered'`;
    return row!.n;
  });
}

/** Direct messages the fake chat delivered to each tier's user. */
export function pagesReceived(chat: FakeChatApi): { tier1: number; tier2: number } {
  return { tier1: chat.dms(TIER_1_USER.id).length, tier2: chat.dms(TIER_2_USER.id).length };
}
