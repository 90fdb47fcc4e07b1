export * from './create-component';
export * from './delete-component';
export { componentNotFound, listStatusComponents } from './list-components';
export { listStatusUpdates } from './list-updates';
export * from './publish-update';
export * from './read-public-status';
export { automaticStatus, overallStatus, publicHeading } from './rules';
export * from './update-component';
