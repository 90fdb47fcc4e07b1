import { createHmac, timingSafeEqual } from 'node:crypto';
import type { IncomingHttpHeaders } from 'node:http';
import type { WebhookRequest } from '@firebreak/services';
import { afterEach, describe, expect, it } from 'vitest';
import { createWebhookSender } from './send';
import { type Receiver, type Reply, startReceiver } from './test-fixtures';

// The HTTP client against a real local receiver (docs/integrations/outgoing-webhooks.md).
let receiver: Receiver | undefined;
afterEach(async () => {
  await receiver?.close();
  receiver = undefined;
});

async function start(reply: Parameters<typeof startReceiver>[0]): Promise<Receiver> {
  receiver = await startReceiver(reply);
  return receiver;
}

const request = (overrides: Partial<WebhookRequest> = {}): WebhookRequest => ({
  deliveryId: '6f9619ff-8b86-4d11-b42d-00c04fc964ff',
  event: 'incident.created',
  url: `${receiver!.origin}/hooks/firebreak`,
  body: JSON.stringify({ event: 'incident.created', occurred_at: '2026-11-21T10:00:00.000Z', incident: {} }),
  secret: null,
  timestamp: 1_795_255_200,
  ...overrides,
});

/** What a receiver does, as docs/integrations/outgoing-webhooks.md#verifying-the-signature shows it. */
function verify(secret: string, headers: IncomingHttpHeaders, rawBody: string): boolean {
  const timestamp = String(headers['x-firebreak-timestamp'] ?? '');
  const expected = `sha256=${createHmac('sha256', secret).update(`${timestamp}.${rawBody}`).digest('hex')}`;
  const given = String(headers['x-firebreak-signature'] ?? '');
  return given.length === expected.length && timingSafeEqual(Buffer.from(given), Buffer.from(expected));
}

const ok: Reply = { status: 200, body: 'ok' };

describe('sending a delivery', () => {
  it('POSTs the body with the event headers and a signature the receiver can verify', async () => {
    const { received } = await start(() => ({ status: 204 }));
    const secret = 'a-shared-secret-of-the-receiver';
    const result = await createWebhookSender()(request({ secret }));
    expect(result).toMatchObject({ kind: 'answered', statusCode: 204 });
    const [got] = received;
    expect(got).toMatchObject({ method: 'POST', path: '/hooks/firebreak', body: request().body });
    expect(got!.headers).toMatchObject({
      'content-type': 'application/json',
      'user-agent': 'Firebreak',
      'x-firebreak-event': 'incident.created',
      'x-firebreak-timestamp': '1795255200',
      'x-firebreak-delivery': '6f9619ff-8b86-4d11-b42d-00c04fc964ff',
    });
    expect(got!.headers['x-firebreak-signature']).toMatch(/^sha256=[0-9a-f]{64}$/);
    expect(verify(secret, got!.headers, got!.body)).toBe(true);
    // Another secret, or a body changed by one byte, does not verify.
    expect(verify('another-secret-entirely', got!.headers, got!.body)).toBe(false);
    expect(verify(secret, got!.headers, `${got!.body} `)).toBe(false);
  });

  it('sends no signature when the webhook has no secret', async () => {
    const { received } = await start(() => ok);
    await createWebhookSender()(request());
    expect(received[0]!.headers).not.toHaveProperty('x-firebreak-signature');
  });

  it('does not follow a redirect', async () => {
    const { received } = await start(({ path }) =>
      path === '/moved' ? ok : { status: 302, headers: { location: '/moved' } },
    );
    const result = await createWebhookSender()(request());
    expect(result).toMatchObject({ kind: 'answered', statusCode: 302 });
    expect(received.map((r) => r.path)).toEqual(['/hooks/firebreak']);
  });

  it("reports a refusal's status, the start of its body, and a 429's Retry-After", async () => {
    await start(({ headers }) =>
      headers['x-firebreak-event'] === 'incident.resolved'
        ? { status: 429, headers: { 'retry-after': '120' }, body: 'slow down' }
        : { status: 404, body: `{"error":"unknown route"}${' '.repeat(10_000)}` },
    );
    const send = createWebhookSender();
    expect(await send(request())).toMatchObject({
      kind: 'answered',
      statusCode: 404,
      detail: '{"error":"unknown route"}',
    });
    expect(await send(request({ event: 'incident.resolved' }))).toMatchObject({
      kind: 'answered',
      statusCode: 429,
      retryAfterMs: 120_000,
    });
  });

  it('gives up on a target that does not answer in time', async () => {
    await start(() => 'hang');
    const result = await createWebhookSender({ timeoutMs: 200 })(request());
    expect(result).toMatchObject({ kind: 'unreachable', error: 'timed out after 0.2 s' });
  });

  it('reports a target that refuses the connection', async () => {
    const gone = await start(() => ok);
    const closed = request({ url: `${gone.origin}/hooks` });
    await gone.close();
    receiver = undefined;
    const result = await createWebhookSender()(closed);
    expect(result).toMatchObject({ kind: 'unreachable', error: expect.stringMatching(/ECONNREFUSED/) });
  });
});
