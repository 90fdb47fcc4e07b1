export * from './present';
export * from './read';
export * from './window';
