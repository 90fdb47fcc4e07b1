import type { Drill } from '../lib/types';
import { redisEmpty } from './redis-empty';
import { redisOutage } from './redis-outage';
import { twoReplicas } from './two-replicas';

// biome-ignore lint/suspicious/noExplicitAny: each drill has its own options; the runner uses defaults.
export const drills: Drill<any>[] = [redisOutage, redisEmpty, twoReplicas];
