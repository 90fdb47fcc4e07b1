export * from './relay-outbox';
