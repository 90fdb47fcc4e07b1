export type { Redis } from 'ioredis';
export * from './jobs';
export * from './redis';
