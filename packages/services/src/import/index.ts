export {
  type ImportFromOnCallInput,
  importFromOnCall,
  type OnCallClientSettings,
} from './import-from-oncall';
export {
  type ImportFromOpsgenieInput,
  importFromOpsgenie,
  type OpsgenieClientSettings,
} from './import-from-opsgenie';
export {
  type ImportFromPagerDutyInput,
  importFromPagerDuty,
  type PagerDutyClientSettings,
} from './import-from-pagerduty';
export {
  createOnCallClient,
  type OnCallClient,
  type OnCallClientOptions,
  type OnCallProgress,
} from './oncall-client';
export {
  createOpsgenieClient,
  type OpsgenieClient,
  type OpsgenieClientOptions,
  type OpsgenieProgress,
} from './opsgenie-client';
export {
  createPagerDutyClient,
  type PagerDutyClient,
  type PagerDutyClientOptions,
  type PagerDutyProgress,
} from './pagerduty-client';
export { OVERRIDE_WINDOW_DAYS } from './read-pagerduty';
export { type ImportContext, runImport } from './run-import';
export { setupPassword } from './setup-password';
export { SETUP_TOKEN_TTL_MS } from './setup-tokens';
