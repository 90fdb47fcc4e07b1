import type { Drill } from '../lib/types';
import { badInput } from './bad-input';
import { fuzz } from './fuzz';
import { heartbeats } from './heartbeats';
import { pagingRedisEmpty } from './paging-redis-empty';
import { postgresFailover } from './postgres-failover';
import { postgresOutage } from './postgres-outage';
import { redisEmpty } from './redis-empty';
import { redisOutage } from './redis-outage';
import { sentinelFailover } from './sentinel-failover';
import { sigtermUnderLoad } from './sigterm-under-load';
import { twoReplicas } from './two-replicas';
import { workerKilled } from './worker-killed';

// biome-ignore lint/suspicious/noExplicitAny: each drill has its own options; the runner uses defaults.
export const drills: Drill<any>[] = [
  redisOutage,
  redisEmpty,
  pagingRedisEmpty,
  heartbeats,
  postgresOutage,
  postgresFailover,
  sentinelFailover,
  workerKilled,
  twoReplicas,
  sigtermUnderLoad,
  badInput,
  fuzz,
];
