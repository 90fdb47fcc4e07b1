// For `pnpm start` with several HTTP processes (apps/server): one scrape answers for all of them.
export {
  aggregateMetrics,
  createRequestsByProcess,
  GatheredRegistry,
  type ProcessMetrics,
} from '@firebreak/metrics';
