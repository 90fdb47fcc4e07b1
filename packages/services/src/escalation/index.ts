export * from './escalate-now';
export * from './fire-separately';
export * from './fire-steps';
export * from './list-overdue';
export * from './next-deadline';
export * from './run';
export * from './start';
export * from './targets';
