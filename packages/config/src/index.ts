export * from './config';
export * from './database-url';
export { type Env, secretNames } from './secrets';
