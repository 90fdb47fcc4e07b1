import type { Sql } from '@firebreak/db';
import type { AlertInput } from '@firebreak/schema';
import type { ServiceContext } from '../context';
import type { IntakeSource } from './intake-source';
import type { AlertOutcome } from './record-alerts';

/** Transactions of one source's requests in flight at once, per process. */
export const BATCHES_IN_FLIGHT = 2;
/** Requests join a waiting batch while it holds fewer alerts than this (a request is never split). */
export const ALERTS_PER_BATCH = 500;

type RecordBatch = (inputs: readonly AlertInput[], at: Date) => Promise<AlertOutcome[]>;

interface Waiting {
  inputs: readonly AlertInput[];
  receivedAt: Date;
  done: (outcomes: AlertOutcome[]) => void;
  failed: (error: unknown) => void;
}

/** The requests of one source waiting for a transaction, and how many of its transactions run. */
interface Lane {
  waiting: Waiting[];
  running: number;
}

// Per connection pool, so that two installations in one process (tests) never share a transaction.
const lanesByPool = new WeakMap<Sql, Map<string, Lane>>();

/**
 * Records a request's alerts, in company when others of the same source wait: while
 * `BATCHES_IN_FLIGHT` transactions of a source are running, its next requests wait, and the next
 * transaction records all that waited (up to `ALERTS_PER_BATCH` alerts) at once. An idle intake
 * starts each request's transaction at once, so company costs nothing when there is none; under load
 * a transaction, its reads of rules and windows and its set-wise writes are shared by many requests
 * (docs/decisions.md#intake-in-company).
 *
 * Each request gets the outcomes of its own alerts. If a shared transaction fails, each of its
 * requests runs again alone, so one request's failure (a value the database refuses) is only its
 * own; `record` must therefore be safe to run again after a failure that may have committed (keyed
 * alerts are found again by their keys). The shared transaction's time is the newest request's
 * arrival, so no alert is recorded as received before it came.
 */
export function recordInCompany(
  ctx: Pick<ServiceContext, 'sql' | 'metrics'>,
  source: IntakeSource,
  inputs: readonly AlertInput[],
  receivedAt: Date,
  record: RecordBatch,
): Promise<AlertOutcome[]> {
  const lanes = lanesByPool.get(ctx.sql) ?? new Map<string, Lane>();
  lanesByPool.set(ctx.sql, lanes);
  const key = laneKey(source);
  const lane = lanes.get(key) ?? { waiting: [], running: 0 };
  lanes.set(key, lane);
  return new Promise((done, failed) => {
    lane.waiting.push({ inputs, receivedAt, done, failed });
    ctx.metrics.intakeWaiting.inc();
    startBatches(ctx, lanes, key, lane, record);
  });
}

/** Requests share a transaction only when everything recording knows of their source is the same. */
function laneKey(source: IntakeSource): string {
  return JSON.stringify([
    source.scope,
    source.integrationId,
    source.type,
    source.escalationPolicyId,
    Object.entries(source.labels).sort(([a], [b]) => a.localeCompare(b)),
  ]);
}

function startBatches(
  ctx: Pick<ServiceContext, 'metrics'>,
  lanes: Map<string, Lane>,
  key: string,
  lane: Lane,
  record: RecordBatch,
): void {
  while (lane.running < BATCHES_IN_FLIGHT && lane.waiting.length > 0) {
    const batch = takeBatch(lane);
    ctx.metrics.intakeWaiting.dec(batch.length);
    lane.running += 1;
    void runBatch(batch, record).finally(() => {
      lane.running -= 1;
      if (lane.running === 0 && lane.waiting.length === 0) lanes.delete(key);
      else startBatches(ctx, lanes, key, lane, record);
    });
  }
}

/** The oldest waiting request, and those after it while the batch stays within its size. */
function takeBatch(lane: Lane): Waiting[] {
  const batch = [lane.waiting.shift()!];
  let alerts = batch[0]!.inputs.length;
  while (lane.waiting.length > 0 && alerts + lane.waiting[0]!.inputs.length <= ALERTS_PER_BATCH) {
    const next = lane.waiting.shift()!;
    alerts += next.inputs.length;
    batch.push(next);
  }
  return batch;
}

async function runBatch(batch: Waiting[], record: RecordBatch): Promise<void> {
  if (batch.length === 1) return runAlone(batch[0]!, record);
  const at = new Date(Math.max(...batch.map((request) => request.receivedAt.getTime())));
  let outcomes: AlertOutcome[];
  try {
    outcomes = await record(
      batch.flatMap((request) => request.inputs),
      at,
    );
  } catch {
    await Promise.all(batch.map((request) => runAlone(request, record)));
    return;
  }
  let offset = 0;
  for (const request of batch) {
    request.done(outcomes.slice(offset, offset + request.inputs.length));
    offset += request.inputs.length;
  }
}

async function runAlone(request: Waiting, record: RecordBatch): Promise<void> {
  try {
    request.done(await record(request.inputs, request.receivedAt));
  } catch (error) {
    request.failed(error);
  }
}
