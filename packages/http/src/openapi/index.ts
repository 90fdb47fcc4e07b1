export * from './document';
export * from './operation';
export * from './responses';
