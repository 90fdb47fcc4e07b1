import { z } from 'zod';

/** How many items a page of a list endpoint holds: `limit` is 1 to 1000, 50 when not given. */
export const pageLimits = { min: 1, max: 1000, default: 50 } as const;

/** The `limit` query parameter of every list endpoint. */
export const PageLimit = z.coerce
  .number()
  .int()
  .min(pageLimits.min)
  .max(pageLimits.max)
  .default(pageLimits.default);
