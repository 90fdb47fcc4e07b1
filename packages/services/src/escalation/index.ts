export * from './fire-steps';
export * from './next-deadline';
export * from './run';
export * from './start';
export * from './targets';
