// AI (docs/ai.md) against the fake AI provider (both wire formats): summary, post-mortem, handoff
// digest, provider failures and retries, the not-configured answer, and what prompts may contain.

import { bodyOf, type FakeAiProvider, startFakeAiProvider, waitFor } from '@firebreak/testing';
import { type RunningWorker, startWorker } from '@firebreak/worker';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { startTestServer, type TestServer } from './support/server-app';

const AI_KEY = 'ai-key-never-in-prompts';
const SECRET = 'chat-signing-secret-never-in-prompts';
let fake: FakeAiProvider;

beforeAll(async () => {
  fake = await startFakeAiProvider({ apiKey: AI_KEY });
});
afterAll(() => fake.close());

interface Setup {
  s: TestServer;
  worker: RunningWorker;
}
const running: Setup[] = [];
afterEach(async () => {
  fake.clearFaults();
  for (const { s, worker } of running.splice(0)) {
    await worker.stop();
    await s.runtime.cleanup();
  }
});

async function setup(provider: 'openai' | 'anthropic'): Promise<Setup> {
  const s = await startTestServer({
    AI_PROVIDER: provider,
    AI_BASE_URL: provider === 'openai' ? fake.openAiBaseUrl : fake.anthropicBaseUrl,
    AI_API_KEY: AI_KEY,
    AI_MODEL: `${provider}-test-model`,
    CHAT_SIGNING_SECRET: SECRET,
  });
  const worker = await startWorker(s.runtime.ctx, {
    redis: s.runtime.redisConfig,
    ai: s.runtime.config.ai,
    intervalMs: 200,
  });
  const setupResult = { s, worker };
  running.push(setupResult);
  return setupResult;
}

async function incidentWithHistory(s: TestServer, title: string) {
  const incident = await bodyOf(
    await s.api('POST', '/api/v1/incidents', { token: s.admin.token, body: { title, severity: 'critical' } }),
  );
  await s.api('POST', `/api/v1/incidents/${incident.id}/notes`, {
    token: s.admin.token,
    body: { text: 'Rolled back deploy 412; error rate falling' },
  });
  await s.api('PATCH', `/api/v1/incidents/${incident.id}`, {
    token: s.admin.token,
    body: { status: 'acknowledged' },
  });
  return incident;
}

// The timeline is paged (100 by default); these incidents stay under one page of the maximum, 500.
const entriesOf = async (s: TestServer, id: string) =>
  (await s.get(`/api/v1/incidents/${id}/timeline?limit=500`)).entries;

describe.each(['openai', 'anthropic'] as const)('summary through %s', (provider) => {
  it('lands as an ai_summary entry citing the timeline, posted to the channel, built only from the incident', async () => {
    const { s } = await setup(provider);
    const other = await incidentWithHistory(s, 'Unrelated billing outage');
    const incident = await incidentWithHistory(s, 'Checkout 502s');
    fake.setResponder(
      () => 'Checkout returns 502s since the deploy [E1]; rolled back [E2], acknowledged [E3].',
    );

    const res = await s.api('POST', `/api/v1/incidents/${incident.number}/summary`, { token: s.admin.token });
    expect(res.status).toBe(202);
    const { job_id } = await bodyOf(res);
    const summary = await waitFor(
      async () => (await entriesOf(s, incident.id)).find((e: { type: string }) => e.type === 'ai_summary'),
      {
        what: 'ai_summary entry',
      },
    );
    const entries = await entriesOf(s, incident.id);
    expect(summary.data).toMatchObject({
      text: 'Checkout returns 502s since the deploy [E1]; rolled back [E2], acknowledged [E3].',
      request_id: job_id,
      cites: entries.slice(0, 3).map((e: { id: string }) => e.id),
    });
    expect(summary.actor.type).toBe('ai');
    expect(await s.get(`/api/v1/ai-jobs/${job_id}`)).toMatchObject({
      status: 'done',
      kind: 'summary',
      error: null,
    });

    const prompt = fake.lastRequest()!;
    expect(prompt.provider).toBe(provider);
    expect(prompt.model).toBe(`${provider}-test-model`);
    expect(prompt.prompt).toContain('Checkout 502s');
    expect(prompt.prompt).toContain('Rolled back deploy 412');
    expect(prompt.prompt).not.toContain(other.title);
    for (const secret of [AI_KEY, SECRET, s.admin.token]) expect(prompt.prompt).not.toContain(secret);

    const posts = await s.runtime.sql`
      select count(*)::int as n from outbox where job_name = 'chat.post_timeline_entry' and payload->>'entry_id' = ${summary.id}`;
    expect(posts[0]!.n).toBe(1);
  });
});

describe('post-mortem', () => {
  it('is drafted after resolution and redrafted on request', async () => {
    const { s } = await setup('openai');
    fake.setResponder(() => '## Summary\nCheckout failed [E1].\n## Impact\nNot recorded.');
    const incident = await incidentWithHistory(s, 'Payments down');
    await s.api('PATCH', `/api/v1/incidents/${incident.id}`, {
      token: s.admin.token,
      body: { status: 'resolved' },
    });
    const first = await waitFor(
      async () => {
        const res = await s.api('GET', `/api/v1/incidents/${incident.id}/postmortem`, {
          token: s.admin.token,
        });
        const body = res.status === 200 ? await bodyOf(res) : undefined;
        return body?.status === 'done' ? body : undefined;
      },
      { what: 'post-mortem' },
    );
    expect(first.content).toContain('## Summary');
    expect(fake.lastRequest()!.prompt).toContain('MTTR');

    fake.setResponder(() => '## Summary\nRedrafted.');
    const redraft = await s.api('POST', `/api/v1/incidents/${incident.id}/postmortem`, {
      token: s.admin.token,
    });
    expect(redraft.status).toBe(202);
    await waitFor(
      async () => (await s.get(`/api/v1/incidents/${incident.id}/postmortem`)).content?.includes('Redrafted'),
      {
        what: 'redraft',
      },
    );
    const drafted = (await entriesOf(s, incident.id)).filter(
      (e: { type: string }) => e.type === 'postmortem_drafted',
    );
    expect(drafted).toHaveLength(2);
  });
});

describe('handoff digest', () => {
  it('covers the incidents of the window and is readable through the API', async () => {
    const { s } = await setup('anthropic');
    fake.setResponder(() => 'Opened: INC-1 Disk full. Still open: INC-1.');
    await incidentWithHistory(s, 'Disk full on db-3');
    const res = await s.api('POST', '/api/v1/handoff-digests', { token: s.admin.token, body: {} });
    expect(res.status).toBe(202);
    const { id } = await bodyOf(res);
    const digest = await waitFor(
      async () => {
        const body = await s.get(`/api/v1/handoff-digests/${id}`);
        return body.status === 'done' ? body : undefined;
      },
      { what: 'digest' },
    );
    expect(digest.content).toBe('Opened: INC-1 Disk full. Still open: INC-1.');
    expect(fake.lastRequest()!.prompt).toContain('Disk full on db-3');
    const bad = await s.api('POST', '/api/v1/handoff-digests', {
      token: s.admin.token,
      body: { since: '2026-11-21T10:00:00Z', until: '2026-11-21T09:00:00Z' },
    });
    expect(bad.status).toBe(400);
  });
});

describe('provider failures', () => {
  it('retries a rate limit, and marks the job failed with the reason when the provider keeps failing', async () => {
    const { s } = await setup('openai');
    fake.setResponder(() => 'Fine after a 429.');
    const incident = await incidentWithHistory(s, 'Flaky provider');
    fake.rateLimitNext({ times: 1, retryAfter: 1 });
    await s.api('POST', `/api/v1/incidents/${incident.id}/summary`, { token: s.admin.token });
    await waitFor(
      async () => (await entriesOf(s, incident.id)).some((e: { type: string }) => e.type === 'ai_summary'),
      {
        what: 'summary after the 429',
      },
    );

    fake.failNext({ status: 500, times: 1000, shouldRetry: false });
    const res = await s.api('POST', `/api/v1/incidents/${incident.id}/summary`, { token: s.admin.token });
    const { job_id } = await bodyOf(res);
    const job = await waitFor(
      async () => {
        const body = await s.get(`/api/v1/ai-jobs/${job_id}`);
        return body.status === 'failed' ? body : undefined;
      },
      { what: 'failed job', timeoutMs: 30_000 },
    );
    expect(job.error).toMatch(/500/);
    const summaries = (await entriesOf(s, incident.id)).filter(
      (e: { type: string }) => e.type === 'ai_summary',
    );
    expect(summaries).toHaveLength(1); // the failed one wrote nothing
  }, 45_000);
});

describe('bounded input', () => {
  it('condenses a long timeline in windows, so no single prompt grows with the incident', async () => {
    const { s } = await setup('openai');
    fake.setResponder((req) =>
      req.prompt.includes('Condense this part') ? 'condensed window' : 'final summary',
    );
    const incident = await incidentWithHistory(s, 'Very long incident');
    for (let i = 0; i < 300; i++) {
      await s.runtime.sql`
        insert into timeline_entries (incident_id, type, actor_type, actor_name, data)
        values (${incident.id}, 'message', 'user', 'bot', ${s.runtime.sql.json({ text: `note ${i} ${'x'.repeat(2000)}` })})`;
    }
    const before = fake.requests.length;
    await s.api('POST', `/api/v1/incidents/${incident.id}/summary`, { token: s.admin.token });
    await waitFor(
      async () => (await entriesOf(s, incident.id)).some((e: { type: string }) => e.type === 'ai_summary'),
      {
        what: 'summary',
      },
    );
    const calls = fake.requests.slice(before);
    expect(calls.length).toBe(4); // three windows of at most 120 entries, then the summary
    for (const call of calls) expect(call.prompt.length).toBeLessThan(70_000);
  });
});

describe('without a provider', () => {
  it('answers 409 ai_not_configured on the three POSTs', async () => {
    const s = await startTestServer();
    try {
      const incident = await bodyOf(
        await s.api('POST', '/api/v1/incidents', {
          token: s.admin.token,
          body: { title: 'x', severity: 'low' },
        }),
      );
      for (const path of [
        `/api/v1/incidents/${incident.id}/summary`,
        `/api/v1/incidents/${incident.id}/postmortem`,
        '/api/v1/handoff-digests',
      ]) {
        const res = await s.api('POST', path, { token: s.admin.token, body: {} });
        expect(res.status).toBe(409);
        expect((await bodyOf(res)).error.code).toBe('ai_not_configured');
      }
    } finally {
      await s.runtime.cleanup();
    }
  });
});
