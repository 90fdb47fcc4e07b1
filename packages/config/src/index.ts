export * from './config';
export { type Env, secretNames } from './secrets';
