export * from './create-webhook';
export * from './delete-webhook';
export * from './deliver';
export * from './present';
export { listOutgoingWebhooks, listWebhookDeliveries } from './queries';
export * from './queue-event';
export * from './retry-policy';
export * from './update-webhook';
