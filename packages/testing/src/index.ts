export * from './database';
export * from './env';
export * from './fakes';
export * from './logs';
export * from './ports';
export * from './private-postgres';
export * from './private-redis';
export * from './redis';
