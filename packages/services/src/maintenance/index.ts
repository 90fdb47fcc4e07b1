export * from './create';
export * from './delete';
export * from './list';
export * from './present';
export { releaseEndedWindows } from './release';
