// The part of the domain a browser can run, for the web UI: everything but the alert-source parsers,
// which hash and check signatures with node:crypto (vite would stub it out in the bundle).
export * from './alert-sources/webhook-integrations';
export * from './incident-lifecycle';
export * from './maintenance';
export * from './oncall';
export * from './oncall-import';
export * from './oncall-notice';
export * from './oncall-overrides';
export * from './oncall-unavailability';
export * from './roles';
export * from './routing';
