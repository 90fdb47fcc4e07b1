export * as apiKeys from './api-keys';
export * from './client';
export { isDatabaseUnavailable } from './errors';
export { pingDatabase } from './health';
export { type MigrateResult, type Migration, migrate, migrationsDir, readMigrations } from './migrate';
export * as sessions from './sessions';
export * as settings from './settings';
export * as users from './users';
