// Node consumers get the whole domain; the web UI imports `@firebreak/domain/browser` (no node builtins).
export * from './alert-sources';
export * from './alert-update';
export * from './analytics';
export * from './browser';
export * from './escalation-step';
export * from './opsgenie-import';
export * from './pagerduty-import';
export * from './sender-groups';
export * from './storms';
