import { z } from 'zod';

export const ComponentState = z.enum(['ok', 'error']);

/** `GET /ready` (CONTRACT.md §8). */
export const Readiness = z.object({
  status: z.enum(['ok', 'degraded', 'error']),
  database: ComponentState,
  redis: ComponentState,
});
export type Readiness = z.infer<typeof Readiness>;
