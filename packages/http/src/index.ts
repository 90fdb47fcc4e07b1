export * from './api-paths';
export * from './auth';
export * from './base-app';
export * from './body';
export type { AppEnv } from './env';
export * from './errors';
export * from './health';
export * from './metrics-route';
export * from './rate-limit';
