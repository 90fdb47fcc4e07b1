export type { Redis } from 'ioredis';
export * from './redis';
