import { describe, expect, it } from 'vitest';
import type { QueueHandlers } from './job-worker';

// Type-level checks: `pnpm typecheck` compiles test files, so each `@ts-expect-error` below fails the
// build the day the line it marks compiles (a queue's worker missing a handler for one of its jobs).
const done = async () => {};

describe("a queue's handler map", () => {
  it('names every job of the queue', () => {
    const handlers: QueueHandlers<'ai'> = {
      'ai.summarize': done,
      'ai.postmortem': done,
      'ai.handoff_digest': done,
      'ai.chat_answer': done,
    };
    expect(Object.keys(handlers)).toHaveLength(4);
  });

  it('does not compile without a handler for one of them, or with a job of another queue', () => {
    // @ts-expect-error `ai.handoff_digest` has no handler
    const missing: QueueHandlers<'ai'> = { 'ai.summarize': done, 'ai.postmortem': done };
    const foreign: QueueHandlers<'escalation'> = {
      'escalation.check': done,
      // @ts-expect-error `chat.open_channel` runs on the chat queue
      'chat.open_channel': done,
    };
    expect([missing, foreign]).toHaveLength(2);
  });
});
