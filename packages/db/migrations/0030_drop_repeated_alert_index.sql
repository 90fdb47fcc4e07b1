-- alerts_incident_received_idx (incident_id, received_at desc, id desc) answers every lookup by
-- incident that alerts_incident_id_idx (incident_id) answered, the foreign key's `on delete set null`
-- among them. Every link of an alert to an incident changes incident_id and so writes an entry into
-- each index of alerts: one index fewer is one write fewer on the path that opens incidents
-- (docs/decisions.md#incident-opening-in-two-round-trips). Additive for older code: no query names it.
drop index alerts_incident_id_idx;
