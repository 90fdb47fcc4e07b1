import { z } from 'zod';

export const ComponentState = z.enum(['ok', 'error']);

/** `GET /ready` (docs/api.md#health). */
export const Readiness = z.object({
  status: z.enum(['ok', 'degraded', 'error']),
  database: ComponentState,
  redis: ComponentState,
});
export type Readiness = z.infer<typeof Readiness>;
