import { fileURLToPath } from 'node:url';

/**
 * The Grafana OnCall fixture organisation: endpoint files the fake OnCall API serves, the state to
 * hold before an import (`preexisting.json`) and the expected answer (`expected.json`). Kept in the
 * repository so that the tests need nothing beside the checkout; its README says what each file holds.
 */
export const oncallFixturesDir = fileURLToPath(new URL('../fixtures/oncall', import.meta.url));
