// The Opsgenie import's public surface; the rule-by-rule functions are exported from their files for tests.
export { OPSGENIE_POLICY_DESCRIPTION } from './escalations';
export { isKeyedOpsgenieType, OPSGENIE_ALERTS_PATH } from './integrations';
export { planOpsgenieImport } from './plan';
