import { availableParallelism } from 'node:os';

/**
 * The default's ceiling, from memory (README.md, "Processes of `pnpm start`"): each HTTP process costs
 * about 170 MiB resident under tsx and 100 MiB from the bundle, beside the primary's ~250 MiB, so four
 * come to about 1 GiB under tsx. Past four cores the split deployment, which scales each app on its own,
 * is the better shape; HTTP_PROCESSES sets more where the memory is there.
 */
export const DEFAULT_HTTP_PROCESSES_CAP = 4;

/**
 * How many processes serve HTTP: HTTP_PROCESSES when set, else one per core the process may use, at
 * most the cap. 1 means today's single process: HTTP, the worker and the chat worker on one event loop.
 */
export function httpProcessCount(configured: number | undefined, cores = availableParallelism()): number {
  if (configured !== undefined) return configured;
  return Math.max(1, Math.min(cores, DEFAULT_HTTP_PROCESSES_CAP));
}
