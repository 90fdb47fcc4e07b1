export * from './incident-lifecycle';
export * from './roles';
