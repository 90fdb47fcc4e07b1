-- Storm mode (docs/api.md#storm-mode, docs/decisions.md#alert-storms): beyond a number of incidents
-- opened from alerts within a few minutes, further would-be incidents join ONE storm incident. The
-- storm is that incident, so its state lives on the incident's row; null on every other incident.
alter table incidents
  add column storm_started_at timestamptz,
  add column storm_last_absorbed_at timestamptz,
  add column storm_absorbed_alerts integer,
  add column storm_calmed_at timestamptz;

-- Exactly one storm at a time, whatever the code does.
create unique index incidents_one_open_storm_idx on incidents ((true))
  where storm_started_at is not null and storm_calmed_at is null;

-- The storm check counts the incidents alerts opened within the window, whenever an alert is about to
-- open one: an index over exactly those rows, newest first, read only up to the threshold.
create index incidents_alert_opened_idx on incidents (created_at desc)
  where source = 'alert' and storm_started_at is null;
