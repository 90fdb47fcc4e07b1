// SIGTERM stops listening and answers every request that reached the server
// (docs/decisions.md#start-up-and-processes, "Shutdown"). The drill: a SIGTERM during intake load, new
// connections arriving right up to the close; every request the server read is answered, and what it
// answered 200 is stored. Each request has a connection of its own, so three endings of a request that
// was not answered are told apart: "refused" (the listener was closed: nothing accepted, a sender
// retries); "reset unread" (a connection the kernel had queued but no process ever accepted, reset
// when the listener closed: no answer began, nothing of it is stored, and the server closed nothing it
// had accepted; a sender retries it like a refusal); and "cut off" (anything else: an answer broken
// off, or a reset request the server did read — the failure this drill looks for).
import { request } from 'node:http';
import { alertsExactlyOnce } from '../lib/checks';
import { sleep, verdict } from '../lib/harness';
import { startFirebreak, startPostgres, startRedis } from '../lib/service';
import type { Drill } from '../lib/types';

type Outcome =
  | { kind: 'answered'; status: number }
  | { kind: 'refused' }
  /** Reset before any byte of an answer: never accepted, or accepted and dropped (told apart below). */
  | { kind: 'reset'; error: string }
  | { kind: 'cut off'; error: string };

/** The server's lines when it closed connections it had accepted without waiting for their answers. */
const FORCED_CLOSES = [
  'closing connections still open after the grace period',
  'an HTTP process did not drain in time',
];

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
    req.on('error', (error: NodeJS.ErrnoException) => {
      if (error.code === 'ECONNREFUSED') resolve({ kind: 'refused' });
      // EPIPE: the reset came while the request was still being written.
      else if (error.code === 'ECONNRESET' || error.code === 'EPIPE')
        resolve({ kind: 'reset', error: error.message });
      else resolve({ kind: 'cut off', error: error.message });
    });
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
    const resetIds: string[] = [];
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
        if (outcome.kind === 'reset') resetIds.push(...alerts.map((a) => a.external_id));
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
    const alerts = await alertsExactlyOnce(databaseUrl, answeredIds);
    // A reset request the server read would have stored its alerts; one it accepted and then closed
    // unanswered would show in its forced-close line. Neither: the kernel's queue, never accepted.
    const resetStored = resetIds.length - (await alertsExactlyOnce(databaseUrl, resetIds)).missing;
    const forcedClose = FORCED_CLOSES.some((line) => service.process.output().includes(line));
    const resetsAccepted = resetStored > 0 || forcedClose;
    const cutOff = count('cut off') + (resetsAccepted ? count('reset') : 0);
    return verdict(
      {
        requests: outcomes.length,
        'in flight at SIGTERM': inFlightAtSignal,
        'answered 200': count('answered') - notOk,
        'answered otherwise': notOk,
        'refused after close': count('refused'),
        'reset unread (never accepted)': resetsAccepted ? 0 : count('reset'),
        'resets with alerts stored': resetStored,
        'forced close logged': String(forcedClose),
        'cut off': cutOff,
        ...(cutOff > 0 ? { 'cut off by': cutOffReasons(outcomes, resetsAccepted) } : {}),
        'exit code': String(exitCode),
        'answered alerts missing': alerts.missing,
      },
      {
        'requests were in flight at SIGTERM': inFlightAtSignal > 0,
        'no accepted request cut off': cutOff === 0,
        'every answer 200': notOk === 0,
        'exit code 0': exitCode === 0,
        'every alert answered 200 is stored': alerts.missing === 0 && alerts.duplicated === 0,
      },
    );
  },
};

/** What ended the requests counted as cut off, for the report. */
function cutOffReasons(outcomes: Outcome[], resetsAccepted: boolean): string {
  const reasons = outcomes.flatMap((o) =>
    o.kind === 'cut off' || (o.kind === 'reset' && resetsAccepted) ? [o.error] : [],
  );
  return [...new Set(reasons)].join('; ');
}
