import { createHmac } from 'node:crypto';
import { createTestRuntime, type TestRuntime } from '@firebreak/runtime/testing';
import {
  addNote,
  createIncident,
  createOutgoingWebhook,
  listWebhookDeliveries,
  updateIncident,
} from '@firebreak/services';
import { waitFor } from '@firebreak/testing';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { type RunningWorker, startWorker } from '../worker';
import { type ReceivedRequest, type Receiver, type Reply, startReceiver } from './test-fixtures';

// The worker end to end on real PostgreSQL and Redis, delivering to a real local receiver: the outbox
// relay wakes the `webhooks` queue, and the reconciler delivers retries when their time comes. The
// clock is moved, not waited for: retries are 10 s apart.
const actor = { type: 'user' as const, name: 'tester' };
const secret = 'receiver-shared-secret-1234';
let runtime: TestRuntime;
let worker: RunningWorker | undefined;
let receiver: Receiver | undefined;
let offsetMs: number;

beforeEach(async () => {
  runtime = await createTestRuntime();
  offsetMs = 0;
  runtime.ctx.now = () => new Date(Date.now() + offsetMs);
});
afterEach(async () => {
  await worker?.stop();
  await receiver?.close();
  await runtime.cleanup();
  worker = receiver = undefined;
});

async function start(reply: (request: ReceivedRequest) => Reply): Promise<{ webhookId: string }> {
  receiver = await startReceiver(reply);
  const webhook = await createOutgoingWebhook(runtime.ctx, {
    name: 'Receiver',
    url: `${receiver.origin}/firebreak`,
    events: ['incident.created', 'incident.acknowledged', 'incident.resolved', 'incident.note_added'],
    secret,
    enabled: true,
  });
  worker = await startWorker(runtime.ctx, {
    redis: runtime.redisConfig,
    ai: runtime.config.ai,
    intervalMs: 200,
  });
  return { webhookId: webhook.id };
}

/** A received request as the receiver reads it, its signature checked. */
function read(request: ReceivedRequest) {
  const timestamp = String(request.headers['x-firebreak-timestamp']);
  const signature = `sha256=${createHmac('sha256', secret).update(`${timestamp}.${request.body}`).digest('hex')}`;
  const body = JSON.parse(request.body);
  return {
    delivery: String(request.headers['x-firebreak-delivery']),
    event: String(request.headers['x-firebreak-event']),
    incident: body.incident.title as string,
    signed:
      request.headers['x-firebreak-signature'] === signature &&
      body.event === request.headers['x-firebreak-event'],
  };
}

async function settled(webhookId: string, count: number) {
  return waitFor(
    async () => {
      const log = await listWebhookDeliveries(runtime.ctx, webhookId, 200);
      return log.length === count && log.every((d) => d.status !== 'pending') ? log : undefined;
    },
    { what: `${count} deliveries settled`, timeoutMs: 15_000 },
  );
}

describe('outgoing webhooks through the worker', () => {
  it('rides out a failing target: nothing lost, nothing doubled, each incident in order', async () => {
    let failing = true;
    const { webhookId } = await start(() => (failing ? { status: 500, body: 'down' } : { status: 200 }));
    const first = await createIncident(runtime.ctx, actor, { title: 'First', severity: 'high' });
    await waitFor(() => receiver!.received.length >= 1, { what: 'the first attempt' });
    await updateIncident(runtime.ctx, actor, { id: first.id }, { status: 'acknowledged' });
    await addNote(runtime.ctx, actor, { id: first.id }, { text: 'rolling back' });
    await updateIncident(runtime.ctx, actor, { id: first.id }, { status: 'resolved' });
    const second = await createIncident(runtime.ctx, actor, { title: 'Second', severity: 'low' });
    await waitFor(() => receiver!.received.some((r) => read(r).incident === 'Second'), { what: 'second' });

    // Each incident's line holds at its failed head: nothing after it was tried.
    await worker!.tick();
    expect(receiver!.received.map((r) => `${read(r).incident} ${read(r).event}`).sort()).toEqual([
      'First incident.created',
      'Second incident.created',
    ]);
    const waiting = await listWebhookDeliveries(runtime.ctx, webhookId, 200);
    expect(waiting.filter((d) => d.status === 'pending')).toHaveLength(5);
    expect(waiting.filter((d) => d.attempts === 1).map((d) => d.last_status_code)).toEqual([500, 500]);

    failing = false;
    offsetMs = 11_000;
    const log = await settled(webhookId, 5);
    expect(log.every((d) => d.status === 'delivered' && d.last_status_code === 200)).toBe(true);

    const accepted = receiver!.received.filter((r) => r.answered === 200).map(read);
    expect(accepted.every((r) => r.signed)).toBe(true);
    // Every delivery accepted exactly once, under the id it was first tried with.
    expect(accepted.map((r) => r.delivery).sort()).toEqual(log.map((d) => d.id).sort());
    expect(accepted.filter((r) => r.incident === 'First').map((r) => r.event)).toEqual([
      'incident.created',
      'incident.acknowledged',
      'incident.note_added',
      'incident.resolved',
    ]);
    expect(accepted.filter((r) => r.incident === 'Second').map((r) => r.event)).toEqual(['incident.created']);
    void second;
  }, 30_000);

  it('does not retry a 4xx: the delivery fails and the next one goes', async () => {
    const { webhookId } = await start((request) =>
      read(request).event === 'incident.created' ? { status: 400, body: 'unknown team' } : { status: 202 },
    );
    const incident = await createIncident(runtime.ctx, actor, { title: 'Refused', severity: 'high' });
    await updateIncident(runtime.ctx, actor, { id: incident.id }, { status: 'acknowledged' });
    const log = await settled(webhookId, 2);
    expect(log.map((d) => [d.event, d.status, d.attempts, d.last_status_code, d.last_error])).toEqual([
      ['incident.acknowledged', 'delivered', 1, 202, null],
      ['incident.created', 'failed', 1, 400, 'HTTP 400: unknown team'],
    ]);
    // An hour later the refused delivery still has not been tried again.
    offsetMs = 3600_000;
    await worker!.tick();
    expect(receiver!.received.map((r) => read(r).event)).toEqual([
      'incident.created',
      'incident.acknowledged',
    ]);
  });
});
