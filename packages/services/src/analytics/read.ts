import { analytics, type TransactionSql } from '@firebreak/db';
import { type AnalyticsQuery, type AnalyticsView, AppError } from '@firebreak/schema';
import pLimit from 'p-limit';
import type { ServiceContext } from '../context';
import { presentAnalytics } from './present';
import { analyticsWindow } from './window';

/** The noisiest alert titles the view lists. */
const NOISIEST_ALERTS = 20;

/**
 * Analytics requests one process reads at a time; the others wait their turn, first come first served,
 * holding no connection (docs/analytics.md#limits): a burst of them (a page left open on a wall screen, a
 * script) must not take the pool from the work that pages people.
 */
export const ANALYTICS_AT_ONCE = 2;
const analyticsGate = pLimit(ANALYTICS_AT_ONCE);

/**
 * `GET /api/v1/analytics` (docs/analytics.md): the window's incidents, pages and alerts. The three
 * statements run at once, each on its own connection in a read-only transaction with JIT off and a
 * statement timeout: the answer takes as long as the slowest of them rather than their sum, and the
 * database's cores share the work. At most `ANALYTICS_AT_ONCE` requests of this process read at a time,
 * so analytics holds at most three times that many connections of the pool.
 */
export async function readAnalytics(ctx: ServiceContext, query: AnalyticsQuery): Promise<AnalyticsView> {
  const window = analyticsWindow(query, ctx.now());
  const groupBy = query.group_by ?? null;
  const read = <T>(statement: (tx: TransactionSql) => Promise<T>) =>
    ctx.sql.begin('read only', async (tx) => {
      const [, rows] = await Promise.all([analytics.limitAnalyticsRead(tx), statement(tx)]);
      return rows;
    });
  const [incidents, pages, alerts] = await analyticsGate(() =>
    Promise.all([
      read((tx) => analytics.incidentGroups(tx, window, groupBy)),
      read((tx) => analytics.pageClocks(tx, window)),
      read((tx) => analytics.alertGroups(tx, window, NOISIEST_ALERTS)),
    ]).catch(tooSlow),
  );
  return presentAnalytics({ window, groupBy, incidents, pages, alerts });
}

function tooSlow(error: unknown): never {
  if (!analytics.isStatementTimeout(error)) throw error;
  throw new AppError(
    'service_unavailable',
    `The analytics took longer than ${analytics.ANALYTICS_STATEMENT_TIMEOUT} to compute and were stopped; ` +
      'try a shorter window.',
  );
}
