export * from './alert-sources';
export * from './incident-lifecycle';
export * from './oncall';
export * from './oncall-import';
export * from './roles';
export * from './routing';
