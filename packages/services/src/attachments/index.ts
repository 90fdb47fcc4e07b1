export * from './delete';
export { attachmentDisposition } from './filename';
export * from './list';
export * from './read';
export * from './upload';
