export * from './complete-handoff-digest';
export * from './complete-postmortem';
export * from './complete-summary';
export * from './context';
export * from './fail-request';
export * from './pending-request';
export * from './requests';
