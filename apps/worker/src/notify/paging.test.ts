import { createTestRuntime, type TestRuntime } from '@firebreak/runtime/testing';
import { acknowledgeFromPageLink, createIncident, updateIncident } from '@firebreak/services';
import { startTestSmtpServer, type TestSmtpOptions, type TestSmtpServer, waitFor } from '@firebreak/testing';
import { afterEach, describe, expect, it } from 'vitest';
import { type RunningWorker, startWorker } from '../worker';
import { ackLinkIn, deliveries, pagedPerson, pagingPolicy } from './test-support';

/** The rows once the last send has been recorded: the mail can arrive a moment before its row says so. */
async function settledDeliveries(ctx: Parameters<typeof deliveries>[0], incidentId: string) {
  let rows: string[] = [];
  await waitFor(
    async () => {
      rows = await deliveries(ctx, incidentId);
      return !rows.some((row) => row.endsWith(':sending'));
    },
    { what: 'the sends recorded' },
  );
  return rows;
}

// Personal paging end to end (docs/paging.md): the escalation step writes the page rows, the
// reconciler wakes them, the `notify` queue sends them to a real SMTP server. The clock is moved, not
// waited for: a rule's delay is minutes.
const actor = { type: 'user' as const, name: 'tester' };
const PUBLIC_URL = 'https://firebreak.example.test';
let runtime: TestRuntime | undefined;
let others: TestRuntime[] = [];
let smtp: TestSmtpServer | undefined;
let workers: RunningWorker[] = [];
let offsetMs = 0;

afterEach(async () => {
  await Promise.all(workers.map((w) => w.stop()));
  await Promise.all(others.map((o) => o.cleanup()));
  await runtime?.cleanup();
  others = [];
  await smtp?.close();
  workers = [];
  runtime = smtp = undefined;
});

async function start(options: { workers?: number; refuse?: TestSmtpOptions['refuse'] } = {}) {
  smtp = await startTestSmtpServer({ refuse: options.refuse });
  runtime = await createTestRuntime({
    env: { SMTP_URL: smtp.url, SMTP_FROM: 'Firebreak <pager@example.test>', PUBLIC_URL },
  });
  offsetMs = 0;
  runtime.ctx.now = () => new Date(Date.now() + offsetMs);
  for (let i = 0; i < (options.workers ?? 1); i += 1) {
    // Another worker is another process: its own pool, metrics and queue prefix, the same database.
    const own: TestRuntime =
      i === 0
        ? runtime
        : await createTestRuntime({ databaseUrl: runtime.db.url, env: { SMTP_URL: smtp.url, PUBLIC_URL } });
    if (own !== runtime) {
      own.ctx.now = runtime.ctx.now;
      others.push(own);
    }
    workers.push(
      await startWorker(own.ctx, {
        redis: runtime.redisConfig,
        ai: runtime.config.ai,
        intervalMs: 100,
        paging: runtime.config.paging,
        publicUrl: PUBLIC_URL,
      }),
    );
  }
  return { ctx: runtime.ctx, smtp };
}

describe('personal paging by e-mail', () => {
  it('sends each rule at its delay, in order, once, with the incident and an acknowledge link', async () => {
    const { ctx, smtp } = await start();
    const pat = await pagedPerson(ctx, [
      { method: 'email', delay_minutes: 0 },
      { method: 'email', delay_minutes: 1 },
    ]);
    await pagingPolicy(ctx, [pat.userId]);
    const incident = await createIncident(ctx, actor, { title: 'Checkout <down>', severity: 'critical' });
    const first = await smtp.waitForMessage((m) => m.to.includes(pat.email));
    expect(await settledDeliveries(ctx, incident.id)).toEqual(['0:email:sent', '1:email:pending']);

    expect(first.from).toBe('pager@example.test');
    expect(first.subject).toBe(`[Firebreak] #${incident.number} critical: Checkout <down>`);
    expect(first.text).toContain('Pat Paged, you are paged for incident');
    expect(first.text).toContain(`Open the incident: ${PUBLIC_URL}/incidents/${incident.number}`);
    expect(ackLinkIn(first.text).startsWith(`${PUBLIC_URL}/api/v1/page/`)).toBe(true);
    // The title is escaped in the HTML part, and the button carries the same link.
    expect(first.html).toContain('Checkout &#60;down&#62;');
    expect(first.html).toContain(`href="${ackLinkIn(first.text)}"`);

    // Nothing more until the second rule's minute has passed.
    await workers[0]!.tick();
    expect(smtp.messages).toHaveLength(1);
    offsetMs = 61_000;
    await waitFor(() => smtp.messages.length === 2, { what: 'the second rule' });
    expect(await settledDeliveries(ctx, incident.id)).toEqual(['0:email:sent', '1:email:sent']);
    await workers[0]!.tick();
    expect(smtp.messages).toHaveLength(2);
  });

  it('stops a person’s rules the moment the incident is acknowledged (by the page’s own link)', async () => {
    const { ctx, smtp } = await start();
    const pat = await pagedPerson(ctx, [
      { method: 'email', delay_minutes: 0 },
      { method: 'email', delay_minutes: 5 },
    ]);
    await pagingPolicy(ctx, [pat.userId]);
    const incident = await createIncident(ctx, actor, { title: 'Disk full', severity: 'high' });
    const first = await smtp.waitForMessage(() => true);
    const token = ackLinkIn(first.text).split('/').pop()!;
    expect(await acknowledgeFromPageLink(ctx, token, 'link')).toMatchObject({ outcome: 'acknowledged' });

    offsetMs = 6 * 60_000;
    await waitFor(async () => (await deliveries(ctx, incident.id)).includes('1:email:skipped'), {
      what: 'the second rule skipped',
    });
    expect(smtp.messages).toHaveLength(1);
    const [entry] = await ctx.sql<{ actor_id: string; actor_name: string; data: { via: string } }[]>`
      select actor_id, actor_name, data from timeline_entries
      where incident_id = ${incident.id} and type = 'status_changed'`;
    expect(entry).toMatchObject({
      actor_id: pat.userId,
      actor_name: 'Pat Paged',
      data: { via: 'link', to: 'acknowledged' },
    });
  });

  it('stops on resolve too, and a person without e-mail rules gets no e-mail', async () => {
    const { ctx, smtp } = await start();
    const pat = await pagedPerson(ctx, [{ method: 'email', delay_minutes: 2 }]);
    const chatOnly = await pagedPerson(ctx, [{ method: 'chat', delay_minutes: 0 }], 'Cleo Chat');
    await pagingPolicy(ctx, [pat.userId, chatOnly.userId]);
    const incident = await createIncident(ctx, actor, { title: 'Flapping', severity: 'low' });
    await waitFor(async () => (await deliveries(ctx, incident.id)).length === 1, { what: 'the page row' });
    await updateIncident(ctx, actor, { id: incident.id }, { status: 'resolved' });
    offsetMs = 3 * 60_000;
    await waitFor(async () => (await deliveries(ctx, incident.id))[0] === '0:email:skipped', {
      what: 'skipped',
    });
    expect(smtp.messages).toHaveLength(0);
  });

  it('two workers send each page once', async () => {
    const { ctx, smtp } = await start({ workers: 2 });
    const people = [];
    for (let i = 0; i < 6; i += 1) {
      people.push(await pagedPerson(ctx, [{ method: 'email', delay_minutes: 0 }], `Person ${i}`));
    }
    await pagingPolicy(
      ctx,
      people.map((p) => p.userId),
    );
    const incidents = [];
    for (let i = 0; i < 4; i += 1) {
      incidents.push(await createIncident(ctx, actor, { title: `Outage ${i}`, severity: 'high' }));
    }
    await waitFor(() => smtp.messages.length >= 24, { what: '24 pages', timeoutMs: 20_000 });
    await Promise.all(workers.map((w) => w.tick()));
    const sent = smtp.messages.map((m) => `${m.to.join()} ${m.subject}`);
    expect(sent).toHaveLength(24);
    expect(new Set(sent).size).toBe(24);
    // A delivery is marked sent after the mail server's answer, so the last marks may still be on
    // their way when the 24th message arrives.
    for (const incident of incidents) {
      await waitFor(async () => (await deliveries(ctx, incident.id)).every((d) => d.endsWith(':sent')), {
        what: `every page of ${incident.title} marked sent`,
      });
    }
    expect(smtp.messages).toHaveLength(24);
  }, 30_000);

  it('retries a server’s 4xx with backoff and fails a 5xx with its reason', async () => {
    let greylist = 1;
    const { ctx, smtp } = await start({
      refuse: (to) => {
        if (to.some((a) => a.startsWith('nobody'))) return { code: 550, message: 'No such mailbox' };
        if (greylist > 0) {
          greylist -= 1;
          return { code: 451, message: 'Greylisted, try later' };
        }
        return undefined;
      },
    });
    const pat = await pagedPerson(ctx, [{ method: 'email', delay_minutes: 0 }]);
    await pagingPolicy(ctx, [pat.userId]);
    const incident = await createIncident(ctx, actor, { title: 'Queue stuck', severity: 'high' });
    await waitFor(
      async () => {
        const [row] = await ctx.sql<{ status: string; attempts: number; last_error: string | null }[]>`
        select status, attempts, last_error from page_deliveries where incident_id = ${incident.id}`;
        return row?.attempts === 1 && row.status === 'pending' ? row : undefined;
      },
      { what: 'the greylisted try' },
    );
    expect(runtime!.logs.messages()).toContain('page will retry');
    offsetMs = 31_000;
    await smtp.waitForMessage(() => true);
    expect(await settledDeliveries(ctx, incident.id)).toEqual(['0:email:sent']);

    await ctx.sql`update users set email = 'nobody@example.test' where id = ${pat.userId}`;
    await ctx.sql`update contact_methods set address = 'nobody@example.test' where user_id = ${pat.userId}`;
    const second = await createIncident(ctx, actor, { title: 'Second', severity: 'high' });
    const failed = await waitFor(
      async () => {
        const [row] = await ctx.sql<{ status: string; last_error: string }[]>`
        select status, last_error from page_deliveries where incident_id = ${second.id}`;
        return row?.status === 'failed' ? row : undefined;
      },
      { what: 'the refused page' },
    );
    expect(failed.last_error).toMatch(/^smtp 550: .*No such mailbox/);
    expect(runtime!.logs.messages()).toContain('page delivery failed');
  });
});
