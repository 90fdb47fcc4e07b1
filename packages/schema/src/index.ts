export * from './alert';
export * from './auth';
export * from './errors';
export * from './health';
export * from './incident';
export * from './validation';
