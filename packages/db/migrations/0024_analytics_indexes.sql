-- Analytics (docs/analytics.md, docs/decisions.md#analytics-stays-fast): every number is read over a
-- window of time — incidents by when they opened, pages by when their step fired, alerts by when their
-- occurrence started. Without these indexes a 90-day window reads every row ever written to the three
-- tables; with them it reads the window's rows only, however many years the installation keeps.
create index incidents_created_at_idx on incidents (created_at);
create index escalation_steps_fired_at_idx on escalation_steps (fired_at);
create index alerts_started_at_idx on alerts (started_at);

-- The alert that opened an incident, whose labels are the incident's labels in analytics. It is
-- recorded by the opening itself (one more column of the same INSERT) because it cannot be told later:
-- an alert that fires again moves its `started_at`, an alert that joins late may carry an earlier
-- sender time, and an alert that fires after its incident resolved moves to a new incident. Null for an
-- incident opened by a person or from chat. Alerts are never deleted today, so the column has no index
-- for `on delete set null` to find its rows by; one is needed if alerts ever are.
alter table incidents add column opened_by_alert_id uuid references alerts (id) on delete set null;

-- Incidents opened before this migration, best effort. An alert-opened incident's first `alert_linked`
-- entry was written in the opening's own transaction and names the opening alert (the timeline is
-- immutable, so it still does). Without such an entry, or when that alert is gone, the earliest of the
-- incident's alerts by `started_at`: the guess analytics made before this column existed.
update incidents i
set opened_by_alert_id = coalesce(
  (select a.id
   from (select t.data ->> 'alert_id' as alert_id from timeline_entries t
         where t.incident_id = i.id and t.type = 'alert_linked' order by t.seq limit 1) first_link
   join alerts a on a.id = case when first_link.alert_id ~ '^[0-9a-fA-F-]{36}$'
                                then first_link.alert_id::uuid end),
  (select a.id from alerts a where a.incident_id = i.id order by a.started_at, a.id limit 1))
where i.source = 'alert';

-- The time zone a step's page happened in (docs/analytics.md#out-of-hours): that of the schedule its
-- tier named when the step was claimed, `UTC` for a tier of named people. Kept on the step because the
-- policy can change afterwards. Null on steps fired before this migration: analytics then reads the
-- tier the policy names now, as it did before.
alter table escalation_steps add column time_zone text;
