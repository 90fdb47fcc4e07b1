import type { Drill } from '../lib/types';
import { redisOutage } from './redis-outage';

// biome-ignore lint/suspicious/noExplicitAny: each drill has its own options; the runner uses defaults.
export const drills: Drill<any>[] = [redisOutage];
