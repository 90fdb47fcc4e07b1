export * from './cluster-metrics';
export * from './first-admin';
export * from './pool-size';
export * from './prepare-database';
export * from './run-app';
export * from './runtime';
export * from './serve';
export * from './shutdown';
