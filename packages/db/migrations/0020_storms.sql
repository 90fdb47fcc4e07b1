-- Storm mode (docs/api.md#storm-mode, docs/decisions.md#alert-storms): beyond a number of incidents
-- opened from alerts within a few minutes, further would-be incidents that would page the same
-- escalation policy join ONE storm incident of that policy. The storm is that incident, so its state
-- lives on the incident's row; null on every other incident.
alter table incidents
  add column storm_started_at timestamptz,
  add column storm_last_absorbed_at timestamptz,
  add column storm_absorbed_alerts integer,
  add column storm_calmed_at timestamptz,
  -- Whose storm it is: `policy:<id>` of the policy it pages, or `none`. Set once at the start and never
  -- changed: escalation_policy_id becomes null when the policy is deleted, and the storm stays its own.
  add column storm_scope text;

-- At most one open storm per scope, whatever the code does.
create unique index incidents_one_open_storm_idx on incidents (storm_scope)
  where storm_started_at is not null and storm_calmed_at is null;

-- The storm check counts the incidents alerts opened within the window for one policy (or none),
-- whenever an alert is about to open one: an index over exactly those rows, newest first per policy,
-- read only up to the threshold.
create index incidents_alert_opened_idx on incidents (escalation_policy_id, created_at desc)
  where source = 'alert' and storm_started_at is null;
