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
  const postmortemOf = async (s: TestServer, id: string) => {
    const res = await s.api('GET', `/api/v1/incidents/${id}/postmortem`, { token: s.admin.token });
    return res.status === 200 ? bodyOf(res) : undefined;
  };
  const draftDone = (s: TestServer, id: string, what: string) =>
    waitFor(
      async () => {
        const doc = await postmortemOf(s, id);
        return doc?.ai_draft?.status === 'done' ? doc : undefined;
      },
      { what },
    );
  const resolve = (s: TestServer, id: string) =>
    s.api('PATCH', `/api/v1/incidents/${id}`, { token: s.admin.token, body: { status: 'resolved' } });

  it('is drafted after resolution into the untouched document, in its template’s sections, and redrafted on request', async () => {
    const { s } = await setup('openai');
    fake.setResponder(() => '## Summary\nCheckout failed [E1].\n## Impact\nNot recorded.');
    const incident = await incidentWithHistory(s, 'Payments down');
    await resolve(s, incident.id);
    const first = await draftDone(s, incident.id, 'post-mortem');
    expect(first).toMatchObject({
      status: 'draft',
      content: '## Summary\nCheckout failed [E1].\n## Impact\nNot recorded.',
      content_source: 'ai',
      updated_by: null,
      ai_draft: {
        status: 'done',
        content: '## Summary\nCheckout failed [E1].\n## Impact\nNot recorded.',
        applied: true,
        error: null,
        generated_at: expect.any(String),
      },
    });
    const prompt = fake.lastRequest()!.prompt;
    expect(prompt).toContain('MTTR');
    // The shipped blameless template's sections, in order.
    expect(prompt).toContain(
      '## Summary\n## Impact\n## Timeline\n## Root cause\n## What went well\n## What went wrong\n## Action items\n## Lessons learned',
    );

    fake.setResponder(() => '## Summary\nRedrafted.');
    const redraft = await s.api('POST', `/api/v1/incidents/${incident.id}/postmortem`, {
      token: s.admin.token,
    });
    expect(redraft.status).toBe(202);
    const { job_id } = await bodyOf(redraft);
    const second = await waitFor(
      async () => {
        const doc = await postmortemOf(s, incident.id);
        return doc?.content.includes('Redrafted') ? doc : undefined;
      },
      { what: 'redraft' },
    );
    expect(second).toMatchObject({ content_source: 'ai', version: first.version + 1, ai_draft: { job_id } });
    const drafted = (await entriesOf(s, incident.id)).filter(
      (e: { type: string }) => e.type === 'postmortem_drafted',
    );
    expect(drafted.map((e: { data: { applied: boolean } }) => e.data.applied)).toEqual([true, true]);
  });

  it('keeps a document people edited: the draft waits beside it until someone takes it', async () => {
    const { s } = await setup('anthropic');
    fake.setResponder(() => '## What happened\nThe cache expired.\n## Next steps\nNot recorded.');
    const template = await bodyOf(
      await s.api('POST', '/api/v1/postmortem-templates', {
        token: s.admin.token,
        body: { name: 'Short', content: '## What happened\n\n## Next steps\n' },
      }),
    );
    const incident = await incidentWithHistory(s, 'Cache stampede');
    const saved = await bodyOf(
      await s.api('PUT', `/api/v1/incidents/${incident.id}/postmortem`, {
        token: s.admin.token,
        body: { status: 'in_review', content: 'Our own words.', template_id: template.id },
      }),
    );
    expect(saved).toMatchObject({ content_source: 'human', version: 1, ai_draft: null });

    await resolve(s, incident.id);
    const landed = await draftDone(s, incident.id, 'waiting draft');
    expect(landed).toMatchObject({
      status: 'in_review',
      content: 'Our own words.',
      content_source: 'human',
      version: 1,
      ai_draft: {
        content: '## What happened\nThe cache expired.\n## Next steps\nNot recorded.',
        applied: false,
      },
    });
    // The document's own template decides the sections the draft is asked for.
    const prompt = fake.lastRequest()!.prompt;
    expect(prompt).toContain('## What happened\n## Next steps');
    expect(prompt).not.toContain('## Lessons learned');

    // "Replace with the AI draft": the UI saves the draft's text; it is the AI's again.
    const replaced = await bodyOf(
      await s.api('PUT', `/api/v1/incidents/${incident.id}/postmortem`, {
        token: s.admin.token,
        body: { status: 'in_review', content: landed.ai_draft.content, version: 1 },
      }),
    );
    expect(replaced).toMatchObject({
      content: landed.ai_draft.content,
      content_source: 'ai',
      version: 2,
      ai_draft: { applied: true },
    });
  });

  it('applies the first draft, then keeps the text once a person edited it: the redraft waits', async () => {
    const { s } = await setup('openai');
    fake.setResponder(() => '## Summary\nFirst draft.');
    const incident = await incidentWithHistory(s, 'Search index stale');
    await resolve(s, incident.id);
    const first = await draftDone(s, incident.id, 'first draft');
    expect(first).toMatchObject({ content: '## Summary\nFirst draft.', content_source: 'ai' });

    const edited = await s.api('PUT', `/api/v1/incidents/${incident.id}/postmortem`, {
      token: s.admin.token,
      body: { status: 'draft', content: '## Summary\nFirst draft, corrected by us.', version: first.version },
    });
    expect(edited.status).toBe(200);
    const mine = await bodyOf(edited);
    expect(mine).toMatchObject({ content_source: 'human', version: first.version + 1 });

    fake.setResponder(() => '## Summary\nSecond draft.');
    const redraft = await s.api('POST', `/api/v1/incidents/${incident.id}/postmortem`, {
      token: s.admin.token,
    });
    const { job_id } = await bodyOf(redraft);
    const waiting = await waitFor(
      async () => {
        const doc = await postmortemOf(s, incident.id);
        return doc?.ai_draft?.job_id === job_id && doc.ai_draft.status === 'done' ? doc : undefined;
      },
      { what: 'waiting redraft' },
    );
    expect(waiting).toMatchObject({
      content: '## Summary\nFirst draft, corrected by us.',
      content_source: 'human',
      version: mine.version,
      ai_draft: { content: '## Summary\nSecond draft.', applied: false },
    });
    const drafted = (await entriesOf(s, incident.id)).filter(
      (e: { type: string }) => e.type === 'postmortem_drafted',
    );
    expect(drafted.map((e: { data: { applied: boolean } }) => e.data.applied)).toEqual([true, false]);
  });

  it('is drafted on resolution only when the incident lasted postmortem_auto_draft_min_minutes (null: never)', async () => {
    const { s } = await setup('openai');
    fake.setResponder(() => '## Summary\nDrafted.');
    const setMinutes = async (minutes: number | null) => {
      const res = await s.api('PATCH', '/api/v1/settings', {
        token: s.admin.token,
        body: { postmortem_auto_draft_min_minutes: minutes },
      });
      expect(res.status).toBe(200);
    };
    const resolvedAfter = async (title: string, minutes: number) => {
      const incident = await incidentWithHistory(s, title);
      await s.runtime.sql`
        update incidents set created_at = now() - make_interval(mins => ${minutes}) where id = ${incident.id}`;
      await resolve(s, incident.id);
      return incident;
    };
    const requests = async (id: string) =>
      (
        await s.runtime.sql<{ n: number }[]>`
          select count(*)::int as n from ai_requests where incident_id = ${id} and kind = 'postmortem'`
      )[0]!.n;

    await setMinutes(30);
    const short = await resolvedAfter('Short blip', 10);
    const long = await resolvedAfter('Long outage', 45);
    await draftDone(s, long.id, 'draft of the long incident');
    expect(await requests(long.id)).toBe(1);
    expect(await requests(short.id)).toBe(0);
    const res = await s.api('GET', `/api/v1/incidents/${short.id}/postmortem`, { token: s.admin.token });
    expect(res.status).toBe(404);
    expect((await bodyOf(res)).error.code).toBe('postmortem_not_found');

    await setMinutes(null);
    const never = await resolvedAfter('Day-long outage', 24 * 60);
    expect(await requests(never.id)).toBe(0);
    // Asking by hand still works.
    expect(
      (await s.api('POST', `/api/v1/incidents/${never.id}/postmortem`, { token: s.admin.token })).status,
    ).toBe(202);
    expect(await requests(never.id)).toBe(1);
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
