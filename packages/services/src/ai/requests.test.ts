// AI requests cost provider calls: one pending request per incident and kind, and a bounded prompt
// however long the incident (docs/ai.md#requests, docs/ai.md#prompts).
import { outbox } from '@firebreak/db';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createIncident } from '../incidents/create';
import { updateIncident } from '../incidents/update';
import { createTestContext, type TestContext } from '../testing/context';
import { AI_PROMPT_LIMITS, loadIncidentContext } from './context';
import { failAiRequest } from './fail-request';
import { requestPostmortem, requestSummary } from './requests';

let t: TestContext;
beforeAll(async () => {
  t = await createTestContext();
});
afterAll(() => t.cleanup());

const actor = { type: 'system' as const, name: 'test' };
const open = (title: string) => createIncident(t.ctx, actor, { title, severity: 'high' });
const jobsNamed = async (name: string) =>
  (await outbox.listPendingOutbox(t.ctx.sql, 10_000)).filter((row) => row.job_name === name);

describe('one pending request per incident and kind', () => {
  it('answers a second summary request with the pending one, and queues one job', async () => {
    const incident = await open('Twice asked');
    const before = (await jobsNamed('ai.summarize')).length;
    const [first, second] = await Promise.all([
      requestSummary(t.ctx, { id: incident.id }),
      requestSummary(t.ctx, { id: incident.id }),
    ]);
    expect(second.job_id).toBe(first.job_id);
    expect(await requestSummary(t.ctx, { id: incident.id })).toEqual(first);
    expect((await jobsNamed('ai.summarize')).length).toBe(before + 1);
    // Another kind is another request.
    expect((await requestPostmortem(t.ctx, { id: incident.id })).job_id).not.toBe(first.job_id);
    // Once it has finished, asking again makes a new one.
    await failAiRequest(t.ctx, first.job_id, 'provider down');
    expect((await requestSummary(t.ctx, { id: incident.id })).job_id).not.toBe(first.job_id);
  });

  it('resolving with a post-mortem already pending does not fail or queue a second draft', async () => {
    t.ctx.features.ai = true;
    try {
      const incident = await open('Resolved while drafting');
      const pending = await requestPostmortem(t.ctx, { id: incident.id });
      const before = (await jobsNamed('ai.postmortem')).length;
      await updateIncident(t.ctx, actor, { id: incident.id }, { status: 'resolved' });
      expect((await jobsNamed('ai.postmortem')).length).toBe(before);
      const [row] = await t.ctx.sql`
        select count(*)::int as n from ai_requests where incident_id = ${incident.id} and kind = 'postmortem'`;
      expect(row!.n).toBe(1);
      expect(pending.job_id).toEqual(expect.any(String));
    } finally {
      t.ctx.features.ai = false;
    }
  });
});

describe('the prompt window', () => {
  it('takes the first and the latest entries of a long timeline, and at most 50 alerts', async () => {
    const incident = await open('All night long');
    const notes = 600;
    await t.ctx.sql`
      insert into timeline_entries (incident_id, type, actor_type, actor_name, data, created_at)
      select ${incident.id}, 'message', 'user', 'Mo', jsonb_build_object('text', 'note ' || n), now()
      from generate_series(1, ${notes}) as n`;
    await t.ctx.sql`
      insert into alerts (integration, title, started_at, incident_id)
      select 'generic', 'alert ' || n, now(), ${incident.id} from generate_series(1, 80) as n`;
    const context = (await loadIncidentContext(t.ctx, incident.id))!;
    const { firstEntries, latestEntries } = AI_PROMPT_LIMITS;
    expect(context.entries).toHaveLength(firstEntries + latestEntries);
    expect(context.omittedEntries).toBe(notes + 1 - firstEntries - latestEntries);
    expect(context.entries[0]!.type).toBe('incident_created');
    expect(context.entries.at(-1)!.data.text).toBe(`note ${notes}`);
    expect(context.entries[firstEntries]!.data.text).toBe(`note ${notes - latestEntries + 1}`);
    const seqs = context.entries.map((e) => BigInt(e.seq));
    expect(seqs).toEqual([...seqs].sort((a, b) => (a < b ? -1 : 1)));
    expect(context.alerts).toHaveLength(AI_PROMPT_LIMITS.alerts);
  });
});
