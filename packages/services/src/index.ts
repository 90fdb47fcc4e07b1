export * from './auth/api-keys';
export * from './auth/authenticate';
export * from './auth/bootstrap-admin';
export * from './auth/login';
export { generatePassword, hashPassword, verifyPassword } from './auth/passwords';
export * from './auth/present';
export type { Principal } from './auth/principal';
export * from './context';
export * from './health/readiness';
