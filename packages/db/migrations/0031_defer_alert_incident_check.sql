-- An alert that opens an incident is inserted already linked to it, in the intake's transaction, before
-- the incident's row is written (the alert is stored first, so that two deliveries of the same new alert
-- meet at its unique key before either takes any other lock): its reference to the incident is checked
-- at commit, when the incident exists. Linking it afterwards was an update of a row written moments
-- before, which rewrote every index entry of the alert (docs/decisions.md#incident-opening-in-two-round-trips).
-- Every other writer sets incident_id to an incident it has just read or locked, so nothing else
-- notices the check moving to the commit. Additive for older code.
alter table alerts alter constraint alerts_incident_id_fkey deferrable initially deferred;
