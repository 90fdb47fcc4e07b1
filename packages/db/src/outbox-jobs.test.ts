import { describe, expect, it } from 'vitest';
import type { OutboxJob } from './outbox';

// Type-level checks: `pnpm typecheck` compiles test files, so each `@ts-expect-error` below fails the
// build the day the line it marks compiles (an outbox row that names no job, or the wrong payload).
const incidentId = '00000000-0000-4000-8000-000000000001';

describe('outbox rows are typed against the job catalog', () => {
  it('take a job of the catalog with its payload', () => {
    const job: OutboxJob = { name: 'chat.open_channel', payload: { incident_id: incidentId } };
    expect(job.name).toBe('chat.open_channel');
  });

  it('refuse an unknown job name or a payload of another job', () => {
    // @ts-expect-error the catalog has no such job
    const unknown: OutboxJob = { name: 'chat.open_chanel', payload: { incident_id: incidentId } };
    // @ts-expect-error `ai.summarize` carries a request id, not an incident id
    const wrongPayload: OutboxJob = { name: 'ai.summarize', payload: { incident_id: incidentId } };
    // @ts-expect-error `entry_id` is required
    const missingField: OutboxJob = {
      name: 'chat.post_timeline_entry',
      payload: { incident_id: incidentId },
    };
    expect([unknown, wrongPayload, missingField]).toHaveLength(3);
  });
});
