export * from './alert';
export * from './auth';
export * from './errors';
export * from './health';
export * from './incident';
export * from './routing';
export * from './settings';
export * from './validation';
