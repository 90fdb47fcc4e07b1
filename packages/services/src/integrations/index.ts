export * from './create';
export * from './delete';
export * from './intake';
export { generateIntakeKey, maskKey } from './keys';
export * from './open-intake-warning';
export { type IntegrationAudience, intakeUrl, presentIntegration } from './present';
export * from './queries';
export * from './rotate-key';
export * from './update';
