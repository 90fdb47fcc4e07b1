// The import's public surface; the rule-by-rule functions are exported from their files for tests.
export { webhookPathFor } from './integrations';
export { type KeyedIntegrationPlan, planKeyedIntegrations } from './keyed-integrations';
export { planOnCallImport } from './plan';
export { IMPORTED_POLICY_DESCRIPTION } from './policies';
export { DEFAULT_TIMEOUT_SECONDS } from './tiers';
export type * from './types';
