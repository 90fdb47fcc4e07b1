export * from './run';
export * from './start';
export * from './targets';
