// SIGTERM stops accepting and lets in-flight requests finish (docs/decisions.md#start-up-and-processes,
// "Shutdown"). The drill: a SIGTERM during intake load; every request the server accepted is answered,
// and what it answered 200 is stored. Each request has a connection of its own, so "refused" (never
// accepted, a sender would retry) is told apart from "cut off" (accepted, then dropped: the failure this
// drill looks for).
import { request } from 'node:http';
import { alertsExactlyOnce } from '../lib/checks';
import { sleep, verdict } from '../lib/harness';
import { startFirebreak, startPostgres, startRedis } from '../lib/service';
import type { Drill } from '../lib/types';

type Outcome =
  | { kind: 'answered'; status: number }
  | { kind: 'refused' }
  | { kind: 'cut off'; error: string };

function post(url: string, body: string): Promise<Outcome> {
  return new Promise((resolve) => {
    const req = request(
      url,
      { method: 'POST', agent: false, headers: { 'content-type': 'application/json' } },
      (res) => {
        res.resume();
        res.on('end', () => resolve({ kind: 'answered', status: res.statusCode ?? 0 }));
        res.on('error', (error) => resolve({ kind: 'cut off', error: error.message }));
      },
    );
    req.on('error', (error: NodeJS.ErrnoException) =>
      resolve(
        error.code === 'ECONNREFUSED' ? { kind: 'refused' } : { kind: 'cut off', error: error.message },
      ),
    );
    req.end(body);
  });
}

const batch = (prefix: string, size: number) =>
  Array.from({ length: size }, (_, i) => ({
    title: `Drill shutdown ${prefix}-${i}`,
    severity: 'warning',
    external_id: `${prefix}-${i}`,
  }));

export const sigtermUnderLoad: Drill<{ connections: number }> = {
  name: 'sigterm-under-load',
  promise: 'SIGTERM during load: every accepted request is answered, clean exit',
  timeoutMs: 120_000,
  async run(defer, { connections = 16 }) {
    const [{ databaseUrl }, redis] = await Promise.all([startPostgres(defer), startRedis(defer)]);
    const service = await startFirebreak(defer, { databaseUrl, redisUrl: redis.url });
    const url = `${service.url}/api/v1/webhooks/generic`;

    const outcomes: Outcome[] = [];
    const answeredIds: string[] = [];
    let stopping = false;
    let inFlightAtSignal = 0;
    let inFlight = 0;
    let n = 0;
    const senders = Array.from({ length: connections }, async () => {
      while (true) {
        const prefix = `sigterm-${n++}`;
        const alerts = batch(prefix, 50);
        inFlight += 1;
        const outcome = await post(url, JSON.stringify({ alerts }));
        inFlight -= 1;
        outcomes.push(outcome);
        if (outcome.kind === 'answered' && outcome.status === 200)
          answeredIds.push(...alerts.map((a) => a.external_id));
        if (stopping && outcome.kind !== 'answered') return;
      }
    });
    await sleep(3000);
    stopping = true;
    inFlightAtSignal = inFlight;
    const exitCode = await service.process.stop('SIGTERM');
    await Promise.all(senders);

    const count = (kind: Outcome['kind']) => outcomes.filter((o) => o.kind === kind).length;
    const notOk = outcomes.filter((o) => o.kind === 'answered' && o.status !== 200).length;
    const cutOff = outcomes.filter((o): o is Extract<Outcome, { kind: 'cut off' }> => o.kind === 'cut off');
    const alerts = await alertsExactlyOnce(databaseUrl, answeredIds);
    return verdict(
      {
        requests: outcomes.length,
        'in flight at SIGTERM': inFlightAtSignal,
        'answered 200': count('answered') - notOk,
        'answered otherwise': notOk,
        'refused after close': count('refused'),
        'cut off': cutOff.length,
        'exit code': String(exitCode),
        'answered alerts missing': alerts.missing,
      },
      {
        'requests were in flight at SIGTERM': inFlightAtSignal > 0,
        'no accepted request cut off': cutOff.length === 0,
        'every answer 200': notOk === 0,
        'exit code 0': exitCode === 0,
        'every alert answered 200 is stored': alerts.missing === 0 && alerts.duplicated === 0,
      },
    );
  },
};
