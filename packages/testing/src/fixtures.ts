import { fileURLToPath } from 'node:url';

/**
 * The Grafana OnCall fixture organisation: endpoint files the fake OnCall API serves, the state to
 * hold before an import (`preexisting.json`) and the expected answer (`expected.json`). Kept in the
 * repository so that the tests need nothing beside the checkout; its README says what each file holds.
 */
export const oncallFixturesDir = fileURLToPath(new URL('../fixtures/oncall', import.meta.url));

/** The Opsgenie fixture account the fake Opsgenie API serves (its README says what each file holds). */
export const opsgenieFixturesDir = fileURLToPath(new URL('../fixtures/opsgenie', import.meta.url));

/** The PagerDuty fixture account the fake PagerDuty API serves (its README says what each file holds). */
export const pagerdutyFixturesDir = fileURLToPath(new URL('../fixtures/pagerduty', import.meta.url));
