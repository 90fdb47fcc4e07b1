import { users } from '@firebreak/db';
import { CreateEscalationPolicyInput, type OutgoingWebhookEvent } from '@firebreak/schema';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { recordAlerts } from '../alerts/record-alerts';
import { runDueEscalations } from '../escalation/run';
import { addNote } from '../incidents/add-note';
import { createIncident } from '../incidents/create';
import { updateIncident } from '../incidents/update';
import { createEscalationPolicy } from '../oncall/create-escalation-policy';
import { setDefaultEscalationPolicy } from '../settings/default-policy';
import { createTestContext, type TestContext } from '../testing/context';
import { createOutgoingWebhook } from './create-webhook';
import { deleteOutgoingWebhook } from './delete-webhook';
import { deliverWebhookLine, listDueWebhookLines, type SendWebhook, type WebhookRequest } from './deliver';
import { listWebhookDeliveries } from './queries';
import { updateOutgoingWebhook } from './update-webhook';

// The delivery loop with an injected clock and transport: nothing sleeps, and the "target" answers
// what each test says. The real HTTP client and the worker are tested in apps/worker.
let t: TestContext;
let clock: Date;
const advance = (ms: number) => {
  clock = new Date(clock.getTime() + ms);
};
const user = { type: 'user' as const, name: 'tester' };

/** What the fake target received, and what it answers next (200 unless told). */
let received: Array<WebhookRequest & { answered: number; incident_id: string }>;
let answer: (request: WebhookRequest) => number;
const send: SendWebhook = async (request) => {
  const statusCode = answer(request);
  const incidentId = JSON.parse(request.body).incident.id;
  received.push({ ...request, answered: statusCode, incident_id: incidentId });
  return { kind: 'answered', statusCode, durationMs: 3 };
};

beforeEach(async () => {
  t = await createTestContext();
  clock = new Date('2026-11-21T10:00:00.000Z');
  t.ctx.now = () => clock;
  received = [];
  answer = () => 200;
});
afterEach(() => t.cleanup());

const allEvents: OutgoingWebhookEvent[] = [
  'incident.created',
  'incident.acknowledged',
  'incident.resolved',
  'incident.escalated',
  'incident.updated',
  'incident.note_added',
];

async function webhook(events: OutgoingWebhookEvent[] = allEvents, enabled = true) {
  return createOutgoingWebhook(t.ctx, {
    name: 'Receiver',
    url: 'https://receiver.example/hook',
    events,
    secret: null,
    enabled,
  });
}

/** Delivers every due line, as the reconciler does. */
async function deliverDue(): Promise<void> {
  for (const line of await listDueWebhookLines(t.ctx)) await deliverWebhookLine(t.ctx, line, send);
}

const eventsOf = (list: typeof received) => list.map((r) => `${r.event} ${r.answered}`);

describe('which changes emit which event', () => {
  it('records one delivery per change, with the incident as the change left it', async () => {
    const hook = await webhook();
    const incident = await createIncident(t.ctx, user, { title: 'Checkout down', severity: 'high' });
    advance(1000);
    await updateIncident(t.ctx, user, { id: incident.id }, { severity: 'critical', status: 'acknowledged' });
    await addNote(t.ctx, user, { id: incident.id }, { text: 'rolling back' });
    await updateIncident(t.ctx, user, { id: incident.id }, { title: 'Checkout was down' });
    await updateIncident(t.ctx, user, { id: incident.id }, { status: 'resolved' });
    // Asking for the status it has changes nothing, and emits nothing.
    await updateIncident(t.ctx, user, { id: incident.id }, { status: 'resolved' });
    await deliverDue();

    expect(eventsOf(received)).toEqual([
      'incident.created 200',
      'incident.updated 200',
      'incident.acknowledged 200',
      'incident.note_added 200',
      'incident.updated 200',
      'incident.resolved 200',
    ]);
    const bodies = received.map((r) => JSON.parse(r.body));
    expect(bodies[0]).toMatchObject({
      event: 'incident.created',
      occurred_at: '2026-11-21T10:00:00.000Z',
      incident: { id: incident.id, number: incident.number, status: 'triggered', severity: 'high' },
    });
    expect(bodies[0].incident).toEqual({ ...incident });
    // `updated` shows the new severity before the status moved; `acknowledged` shows both.
    expect(bodies[1].incident).toMatchObject({ severity: 'critical', status: 'triggered' });
    expect(bodies[2].incident).toMatchObject({ severity: 'critical', status: 'acknowledged' });
    expect(bodies[2].occurred_at).toBe('2026-11-21T10:00:01.000Z');
    expect(bodies[4].incident.title).toBe('Checkout was down');
    expect(bodies[5].incident).toMatchObject({ status: 'resolved', mttr_seconds: 1 });
    const log = await listWebhookDeliveries(t.ctx, hook.id, 50);
    expect(log.map((d) => d.event)).toEqual([...received.map((r) => r.event)].reverse());
    expect(log[0]).toMatchObject({
      status: 'delivered',
      attempts: 1,
      last_status_code: 200,
      next_attempt_at: null,
    });
  });

  it('shows an incident opened by an alert with that alert already linked', async () => {
    await webhook(['incident.created']);
    const [alert] = (
      await recordAlerts(t.ctx, 'generic', [
        {
          title: 'Disk full',
          description: null,
          severity: 'critical',
          status: 'firing',
          externalId: 'disk-1',
          fingerprint: null,
          source: 'nagios',
          labels: {},
          annotations: {},
          startedAt: clock,
          endedAt: null,
        },
      ])
    ).alerts;
    await deliverDue();
    expect(received).toHaveLength(1);
    expect(JSON.parse(received[0]!.body).incident).toMatchObject({
      id: alert!.incident_id,
      source: 'alert',
      alert_count: 1,
    });
  });

  it('emits incident.escalated when an escalation step fires', async () => {
    await webhook(['incident.escalated']);
    const person = await users.insertUser(t.ctx.sql, { email: 'p@example.test', name: 'P', role: 'member' });
    const policy = await createEscalationPolicy(
      t.ctx,
      CreateEscalationPolicyInput.parse({
        name: 'One tier',
        tiers: [{ target_type: 'users', user_ids: [person.id], timeout_seconds: 300 }],
      }),
    );
    await setDefaultEscalationPolicy(t.ctx, policy.id);
    const incident = await createIncident(t.ctx, user, { title: 'Paging', severity: 'critical' });
    expect(await runDueEscalations(t.ctx)).toBe(1);
    await deliverDue();
    expect(eventsOf(received)).toEqual(['incident.escalated 200']);
    expect(received[0]!.incident_id).toBe(incident.id);
  });

  it('records nothing for a change that is refused, an event not subscribed, or a disabled webhook', async () => {
    await webhook(['incident.acknowledged']);
    const disabled = await webhook(allEvents, false);
    const incident = await createIncident(t.ctx, user, { title: 'Quiet', severity: 'low' });
    await updateIncident(t.ctx, user, { id: incident.id }, { status: 'resolved' });
    // Refused by the state machine: the whole change rolls back, its event with it.
    await expect(
      updateIncident(t.ctx, user, { id: incident.id }, { title: 'Renamed', status: 'acknowledged' }),
    ).rejects.toMatchObject({ code: 'invalid_transition' });
    await deliverDue();
    expect(received).toEqual([]);
    expect(await listWebhookDeliveries(t.ctx, disabled.id, 50)).toEqual([]);
  });
});

describe('delivering a line', () => {
  it('holds back the later events of an incident behind a retried one, not other incidents', async () => {
    const hook = await webhook(['incident.created', 'incident.acknowledged', 'incident.resolved']);
    const first = await createIncident(t.ctx, user, { title: 'First', severity: 'high' });
    answer = (request) => (JSON.parse(request.body).incident.id === first.id ? 500 : 200);
    await deliverDue();
    await updateIncident(t.ctx, user, { id: first.id }, { status: 'acknowledged' });
    await updateIncident(t.ctx, user, { id: first.id }, { status: 'resolved' });
    const second = await createIncident(t.ctx, user, { title: 'Second', severity: 'low' });
    await deliverDue();
    // The first incident's line waits 10 s for its retry; the second incident goes at once.
    expect(
      received.map((r) => `${r.incident_id === first.id ? 'first' : 'second'} ${r.event} ${r.answered}`),
    ).toEqual(['first incident.created 500', 'second incident.created 200']);
    const [pending] = (await listWebhookDeliveries(t.ctx, hook.id, 50)).filter(
      (d) => d.incident_id === first.id && d.event === 'incident.created',
    );
    expect(pending).toMatchObject({
      status: 'pending',
      attempts: 1,
      last_status_code: 500,
      last_error: 'HTTP 500',
      next_attempt_at: '2026-11-21T10:00:10.000Z',
    });

    advance(9_999);
    await deliverDue();
    expect(received).toHaveLength(2);
    advance(1);
    answer = () => 200;
    await deliverDue();
    expect(eventsOf(received.slice(2))).toEqual([
      'incident.created 200',
      'incident.acknowledged 200',
      'incident.resolved 200',
    ]);
    expect(received[2]!.deliveryId).toBe(received[0]!.deliveryId);
    const log = await listWebhookDeliveries(t.ctx, hook.id, 50);
    expect(log.map((d) => d.status)).toEqual(['delivered', 'delivered', 'delivered', 'delivered']);
    expect(log.find((d) => d.id === received[0]!.deliveryId)).toMatchObject({
      attempts: 2,
      last_error: null,
    });
    void second;
  });

  it('does not retry a 4xx: the delivery fails and the next one goes', async () => {
    const hook = await webhook();
    const incident = await createIncident(t.ctx, user, { title: 'Refused', severity: 'high' });
    await addNote(t.ctx, user, { id: incident.id }, { text: 'one' });
    answer = (request) => (request.event === 'incident.created' ? 400 : 200);
    await deliverDue();
    advance(3600_000);
    await deliverDue();
    expect(eventsOf(received)).toEqual(['incident.created 400', 'incident.note_added 200']);
    const log = await listWebhookDeliveries(t.ctx, hook.id, 1);
    expect(log).toHaveLength(1);
    const all = await listWebhookDeliveries(t.ctx, hook.id, 50);
    expect(all[1]).toMatchObject({
      event: 'incident.created',
      status: 'failed',
      attempts: 1,
      last_status_code: 400,
    });
  });

  it('gives up 24 hours after the event, and the next one goes', async () => {
    const hook = await webhook(['incident.created', 'incident.note_added']);
    const incident = await createIncident(t.ctx, user, { title: 'Target gone', severity: 'high' });
    answer = () => 503;
    await deliverDue();
    advance(60_000);
    await addNote(t.ctx, user, { id: incident.id }, { text: 'one minute later' });
    for (let hour = 0; hour < 25; hour += 1) {
      advance(3600_000);
      await deliverDue();
    }
    const log = await listWebhookDeliveries(t.ctx, hook.id, 50);
    expect(log.map((d) => [d.event, d.status])).toEqual([
      ['incident.note_added', 'failed'],
      ['incident.created', 'failed'],
    ]);
    expect(log[1]!.last_error).toMatch(/gave up: no success within 24 hours/);
    // The note waited behind the created event, then had its own day of retries.
    expect(log[0]!.attempts).toBeGreaterThan(0);
    expect(received.every((r) => r.answered === 503)).toBe(true);
    expect(await listDueWebhookLines(t.ctx)).toEqual([]);
  });

  it("holds a disabled webhook's pending deliveries until it is enabled again", async () => {
    const hook = await webhook(['incident.created']);
    await createIncident(t.ctx, user, { title: 'Paused', severity: 'low' });
    await updateOutgoingWebhook(t.ctx, hook.id, { enabled: false });
    await deliverDue();
    expect(received).toEqual([]);
    await updateOutgoingWebhook(t.ctx, hook.id, { enabled: true });
    await deliverDue();
    expect(eventsOf(received)).toEqual(['incident.created 200']);
  });

  it('lets one worker deliver a line at a time: a second one stands aside', async () => {
    await webhook(['incident.created']);
    await createIncident(t.ctx, user, { title: 'Raced', severity: 'low' });
    const [line] = await listDueWebhookLines(t.ctx);
    let release!: () => void;
    const held = new Promise<void>((resolve) => {
      release = resolve;
    });
    let reached!: () => void;
    const waiting = new Promise<void>((resolve) => {
      reached = resolve;
    });
    const slow: SendWebhook = async (request) => {
      reached();
      await held;
      return send(request);
    };
    const first = deliverWebhookLine(t.ctx, line!, slow);
    // While the first run waits on the target, it holds the line.
    await waiting;
    expect(await deliverWebhookLine(t.ctx, line!, send)).toBeUndefined();
    release();
    expect(await first).toEqual({ retry: null, more: false });
    expect(await deliverWebhookLine(t.ctx, line!, send)).toEqual({ retry: null, more: false });
    expect(eventsOf(received)).toEqual(['incident.created 200']);
  });

  it('drops pending deliveries with their webhook', async () => {
    const hook = await webhook(['incident.created']);
    answer = () => 500;
    await createIncident(t.ctx, user, { title: 'Deleted receiver', severity: 'low' });
    await deliverDue();
    await deleteOutgoingWebhook(t.ctx, hook.id);
    advance(3600_000);
    await deliverDue();
    expect(received).toHaveLength(1);
    const [left] = await t.ctx.sql<
      { n: number }[]
    >`select count(*)::int as n from outgoing_webhook_deliveries`;
    expect(left!.n).toBe(0);
  });
});
