// The PagerDuty import's public surface; the rule-by-rule functions are exported from their files for tests.
export { EVENTS_V1_PATH, EVENTS_V2_PATH } from './integrations';
export { planPagerDutyImport } from './plan';
export { IMPORTED_FROM_PAGERDUTY } from './policies';
