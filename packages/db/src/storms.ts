import { type IncidentSeverity, stormSettingDefaults } from '@firebreak/schema';
import type { Queryable } from './client';
import { openingPolicySql } from './incident-openings';

/**
 * Storm mode (docs/api.md#storm-mode). A storm is its incident: the `storm_*` columns of `incidents`
 * (migration 0020), set on the storm incident only. Storms are per scope, the escalation policy the
 * would-be incidents would page (`policy:<id>`, or `none`): at most one storm of a scope is open
 * (`storm_calmed_at` null), which a unique index enforces besides the lock below.
 */

/**
 * The storm columns every incident row carries (null on every incident but a storm's). Not listed:
 * `storm_scope`, whose storm it is (`policy:<id>` of the policy it pages, or `none`), fixed at its start
 * and read only by the queries below.
 */
export interface StormColumns {
  storm_started_at: Date | null;
  storm_last_absorbed_at: Date | null;
  storm_absorbed_alerts: number | null;
  storm_calmed_at: Date | null;
}

/** The settings rows of storm mode, named as the settings API names them. */
export const stormSettingKeys = {
  enabled: 'storm_mode_enabled',
  thresholdIncidents: 'storm_threshold_incidents',
  windowMinutes: 'storm_window_minutes',
  calmMinutes: 'storm_calm_minutes',
} as const;

export interface StormCheckRow {
  enabled: boolean;
  threshold_incidents: number;
  window_minutes: number;
  calm_minutes: number;
  /** The scope the check is about: that of the policy the would-be incident pages. */
  scope: string;
  recent_incidents: number;
  storm_id: string | null;
  storm_status: 'triggered' | 'acknowledged' | 'resolved' | null;
  storm_severity: IncidentSeverity | null;
  storm_title: string | null;
  storm_resolved_at: Date | null;
  storm_last_absorbed_at: Date | null;
  storm_absorbed_alerts: number | null;
}

const LOCK_NAME = 'firebreak:storm-decision';

/**
 * What an incident about to open from an alert must know, in the scope of the escalation policy it
 * would page (`rulePolicyId`: its rule's, else its integration's; null for neither, resolved with the
 * installation default as an opening resolves it): the settings, the number of incidents alerts opened
 * within the window for that policy (counted on a partial index and only up to the threshold) and the
 * scope's open storm. `locked`: first the transaction-scoped lock, per scope, that makes the scope's
 * storm decisions one at a time (only while storm mode is on), then — in a statement of its own, so
 * that it sees what the lock's previous holder committed — the read, which also locks the open storm's
 * row. Unlocked: the same read, no lock, for the common case of no storm and fewer openings than the
 * threshold (services/storms/check.ts).
 */
export async function readStormCheck(
  sql: Queryable,
  at: Date,
  options: { rulePolicyId: string | null; locked: boolean },
): Promise<StormCheckRow> {
  // Settings are validated when written (docs/api.md#settings), so the casts cannot fail.
  const flag = (key: string, fallback: boolean) =>
    sql`coalesce((select (value #>> '{}')::boolean from settings where key = ${key}), ${fallback})`;
  const int = (key: string, fallback: number) =>
    sql`coalesce((select (value #>> '{}')::int from settings where key = ${key}), ${fallback}::int)`;
  const d = stormSettingDefaults;
  const k = stormSettingKeys;
  // The policy the opening would page, and its scope.
  const target = sql`
    select policy_id, coalesce('policy:' || policy_id::text, 'none') as scope
    from (select ${openingPolicySql(sql, options.rulePolicyId)} as policy_id) resolved`;
  // Counted in two branches rather than with `is not distinct from`, which no index answers: the
  // policy's incidents, or (in the scope without one) those that page nobody.
  const opened = sql`
    source = 'alert' and storm_started_at is null
    and created_at > ${at}::timestamptz - make_interval(mins => c.window_minutes)`;
  const read = sql<StormCheckRow[]>`
      with config as (
        select ${flag(k.enabled, d.storm_mode_enabled)} as enabled,
               ${int(k.thresholdIncidents, d.storm_threshold_incidents)} as threshold_incidents,
               ${int(k.windowMinutes, d.storm_window_minutes)} as window_minutes,
               ${int(k.calmMinutes, d.storm_calm_minutes)} as calm_minutes
      ), target as materialized (${target})
      select c.enabled, c.threshold_incidents, c.window_minutes, c.calm_minutes,
             t.scope,
             (select count(*)::int from (
                select 1 from incidents
                where c.enabled and escalation_policy_id = t.policy_id and ${opened}
                union all
                select 1 from incidents
                where c.enabled and t.policy_id is null and escalation_policy_id is null and ${opened}
                limit c.threshold_incidents) recent) as recent_incidents,
             s.id as storm_id, s.status as storm_status, s.severity as storm_severity,
             s.title as storm_title, s.resolved_at as storm_resolved_at,
             s.storm_last_absorbed_at, s.storm_absorbed_alerts
      from config c cross join target t
      left join lateral (
        select * from incidents
        where c.enabled and storm_started_at is not null and storm_calmed_at is null
          and storm_scope = t.scope
        ${options.locked ? sql`for update` : sql``}
      ) s on true`;
  if (!options.locked) return (await read)[0]!;
  const [, [row]] = await Promise.all([
    sql`select pg_advisory_xact_lock(hashtextextended(${LOCK_NAME} || ':' || t.scope, 0))
        from (${target}) t
        where ${flag(k.enabled, d.storm_mode_enabled)}`,
    read,
  ]);
  return row!;
}

/** Makes a just-opened incident the storm of `scope` (`StormCheckRow.scope`), with its first absorbed alert. */
export async function markStormStarted(
  sql: Queryable,
  incidentId: string,
  scope: string,
  at: Date,
): Promise<void> {
  await sql`
    update incidents
    set storm_started_at = ${at}, storm_last_absorbed_at = ${at}, storm_absorbed_alerts = 1,
        storm_scope = ${scope}
    where id = ${incidentId}`;
}

/**
 * One more alert joined the storm: the count and the moment (which the calm is measured from), the
 * severity the caller decided, and the title when it is still the one Firebreak gave it. The alert is
 * firing, so the incident no longer has all its alerts resolved.
 */
export async function recordAbsorbed(
  sql: Queryable,
  change: { id: string; at: Date; severity: IncidentSeverity; title: { from: string; to: string } },
): Promise<void> {
  await sql`
    update incidents
    set storm_absorbed_alerts = storm_absorbed_alerts + 1,
        storm_last_absorbed_at = ${change.at},
        severity = ${change.severity},
        title = case when title = ${change.title.from} then ${change.title.to} else title end,
        all_alerts_resolved = false,
        updated_at = ${change.at}
    where id = ${change.id}`;
}

/** Ends the storm (conditionally: of two callers, one ends it). Answers whether this call did. */
export async function markStormCalmed(sql: Queryable, incidentId: string, calmedAt: Date): Promise<boolean> {
  const result = await sql`
    update incidents set storm_calmed_at = ${calmedAt}
    where id = ${incidentId} and storm_started_at is not null and storm_calmed_at is null`;
  return result.count > 0;
}
