export type { Job } from 'bullmq';
export type { Redis } from 'ioredis';
export * from './job-worker';
export * from './jobs';
export * from './queues';
export * from './redis';
export * from './redis-failure';
export * from './shared-pauses';
