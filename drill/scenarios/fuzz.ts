// A fuzz run over the webhook parsers. Properties, checked by fast-check with a fixed seed
// (printed, so any failure can be replayed with `FUZZ_SEED=<seed> pnpm drill fuzz`):
//  - every alert-source parser returns a result or throws only the typed validation error, and what it
//    accepts satisfies the alert schema (packages/domain, in process);
//  - the generic webhook of a running service answers 200 or a 400 error envelope (docs/api.md#errors),
//    never anything else, and a rejected request stores nothing (over HTTP).
import {
  type ParseResult,
  parseAlertmanagerWebhook,
  parseCloudWatchAlarm,
  parseGenericWebhook,
  parseGrafanaWebhook,
} from '@firebreak/domain';
import fc from 'fast-check';
import { parserViolation } from '../lib/alert-shape';
import { alertmanagerPayload, cloudWatchAlarm, genericPayload, grafanaPayload } from '../lib/arbitraries';
import { verdict } from '../lib/harness';
import { startFirebreak, startPostgres, startRedis, withSql } from '../lib/service';
import type { Drill } from '../lib/types';

const now = new Date('2026-11-21T10:15:00.000Z');
const parsers: Array<[string, fc.Arbitrary<unknown>, (payload: unknown) => ParseResult]> = [
  ['generic', genericPayload, (p) => parseGenericWebhook(p, now)],
  ['alertmanager', alertmanagerPayload, (p) => parseAlertmanagerWebhook(p, now)],
  ['grafana', grafanaPayload, (p) => parseGrafanaWebhook(p, now)],
  ['cloudwatch', cloudWatchAlarm, (p) => parseCloudWatchAlarm(p, now)],
];

/** The first counterexample of a property, shrunk, or undefined when it held for every run. */
async function counterexample(
  property: fc.IProperty<unknown> | fc.IAsyncProperty<unknown>,
  seed: number,
  numRuns: number,
) {
  const details = await fc.check(property, { seed, numRuns });
  if (!details.failed) return undefined;
  return `${JSON.stringify(details.counterexample).slice(0, 300)}: ${String(details.errorInstance).slice(0, 200)}`;
}

export const fuzz: Drill<{ seed: number; parserRuns: number; httpRuns: number }> = {
  name: 'fuzz',
  promise:
    'Fuzzed webhook payloads: parsers never throw or accept bad alerts; HTTP answers 200 or 400, stores nothing rejected',
  timeoutMs: 180_000,
  async run(defer, options) {
    // biome-ignore lint/suspicious/noUndeclaredEnvVars: read by `pnpm drill` (tsx), not by a turbo task.
    const seed = options.seed ?? Number(process.env.FUZZ_SEED ?? 20261121);
    const parserRuns = options.parserRuns ?? 3000;
    const httpRuns = options.httpRuns ?? 300;
    const failures: string[] = [];

    for (const [name, arbitrary, parse] of parsers) {
      const shaped = fc.property(arbitrary, (payload) => {
        const violation = parserViolation(() => parse(payload));
        if (violation) throw new Error(violation);
      });
      const anyJson = fc.property(fc.jsonValue(), (payload) => {
        const violation = parserViolation(() => parse(payload));
        if (violation) throw new Error(violation);
      });
      for (const property of [shaped, anyJson]) {
        const found = await counterexample(property, seed, parserRuns);
        if (found) failures.push(`${name} parser: ${found}`);
      }
    }

    const [{ databaseUrl }, redis] = await Promise.all([startPostgres(defer), startRedis(defer)]);
    const service = await startFirebreak(defer, { databaseUrl, redisUrl: redis.url });
    const storedAlerts = () =>
      withSql(
        databaseUrl,
        async (sql) => (await sql<{ n: number }[]>`select count(*)::int as n from alerts`)[0]!.n,
      );
    const answers: Record<string, number> = {};
    const http = fc.asyncProperty(
      fc.oneof({ weight: 3, arbitrary: genericPayload }, { weight: 1, arbitrary: fc.jsonValue() }),
      async (payload) => {
        const before = await storedAlerts();
        const res = await fetch(`${service.url}/api/v1/webhooks/generic`, {
          method: 'POST',
          headers: { 'content-type': 'application/json' },
          body: JSON.stringify(payload),
        });
        const body = (await res.json()) as {
          created?: number;
          error?: { code?: string; request_id?: string };
        };
        const added = (await storedAlerts()) - before;
        const answer = res.status === 200 ? '200' : `${res.status} ${body.error?.code}`;
        answers[answer] = (answers[answer] ?? 0) + 1;
        if (res.status === 200 && added !== body.created)
          throw new Error(`answered created ${body.created}, stored ${added}`);
        if (res.status === 400 && !(body.error?.code === 'validation_failed' && body.error.request_id))
          throw new Error(`400 without the validation_failed envelope: ${JSON.stringify(body)}`);
        if (res.status !== 200 && res.status !== 400) throw new Error(`answered ${answer}`);
        if (res.status === 400 && added !== 0) throw new Error(`rejected, but stored ${added} alerts`);
      },
    );
    const found = await counterexample(http, seed, httpRuns);
    if (found) failures.push(`generic webhook over HTTP: ${found}`);

    return verdict(
      {
        seed,
        'parser runs': parsers.length * 2 * parserRuns,
        'HTTP runs': httpRuns,
        'HTTP answers': Object.entries(answers)
          .map(([answer, n]) => `${n}× ${answer}`)
          .join(', '),
        ...(failures.length > 0 ? { counterexamples: failures.join(' | ') } : {}),
      },
      { 'every property held': failures.length === 0 },
    );
  },
};
