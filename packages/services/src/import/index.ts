export {
  type ImportContext,
  type ImportFromOnCallInput,
  importFromOnCall,
  type OnCallClientSettings,
} from './import-from-oncall';
export {
  createOnCallClient,
  type OnCallClient,
  type OnCallClientOptions,
  type OnCallProgress,
} from './oncall-client';
export { setupPassword } from './setup-password';
export { SETUP_TOKEN_TTL_MS } from './setup-tokens';
