import type { AlertInput } from '@firebreak/schema';
import { CreateIntegrationInput } from '@firebreak/schema';
import { waitFor } from '@firebreak/testing';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { recordAlerts } from '../alerts/record-alerts';
import { createTestContext, type TestContext } from '../testing/context';
import { createIntegration } from './create';
import { deleteIntegration } from './delete';
import { findKeyedIntegration, type KeyedIntegration } from './intake';
import { updateIntegration } from './update';

// An integration deleted or disabled while its keyed intake is busy: the batch answers what the key
// now answers (404), never a foreign key violation (500), and a delete racing a batch never deadlocks.
let t: TestContext;
beforeEach(async () => {
  t = await createTestContext();
});
afterEach(() => t.cleanup());

const audience = { revealKey: true, baseUrl: 'https://firebreak.example.com' };

async function keyedGeneric(): Promise<KeyedIntegration> {
  const created = await createIntegration(
    t.ctx,
    CreateIntegrationInput.parse({ name: 'Prometheus', type: 'generic' }),
    audience,
  );
  return findKeyedIntegration(t.ctx, created.key);
}

function alert(externalId: string, title = `Alert ${externalId}`): AlertInput {
  return {
    title,
    description: null,
    severity: 'info',
    status: 'firing',
    externalId,
    fingerprint: null,
    source: null,
    labels: {},
    annotations: {},
    startedAt: new Date(),
    endedAt: null,
  };
}

const alertCount = async () =>
  (await t.ctx.sql<{ n: number }[]>`select count(*)::int as n from alerts`)[0]!.n;

/** Sessions of this test's database waiting for a row lock. */
async function waitingForLocks(): Promise<number> {
  const [row] = await t.ctx.sql<{ n: number }[]>`
    select count(*)::int as n from pg_stat_activity
    where datname = current_database() and wait_event_type = 'Lock'`;
  return row!.n;
}

describe('a keyed batch and its integration going away', () => {
  it('deleted after the key was looked up: 404 not_found, nothing stored', async () => {
    const integration = await keyedGeneric();
    await deleteIntegration(t.ctx, integration.id);
    await expect(recordAlerts(t.ctx, integration.source, [alert('late')])).rejects.toMatchObject({
      code: 'not_found',
      message: 'No such intake key.',
    });
    expect(await alertCount()).toBe(0);
  });

  it('disabled after the key was looked up: the same 404', async () => {
    const integration = await keyedGeneric();
    await updateIntegration(t.ctx, integration.id, { enabled: false }, audience);
    await expect(recordAlerts(t.ctx, integration.source, [alert('late')])).rejects.toMatchObject({
      code: 'not_found',
    });
    expect(await alertCount()).toBe(0);
  });

  it('a delete racing a batch that holds alert locks: the batch commits, then the delete', async () => {
    const integration = await keyedGeneric();
    await recordAlerts(t.ctx, integration.source, [alert('known')]);

    // Another transaction holds the known alert, so the batch stops there, mid-way.
    let unblock!: () => void;
    const blocked = new Promise<void>((resolve) => {
      unblock = resolve;
    });
    let holding!: () => void;
    const held = new Promise<void>((resolve) => {
      holding = resolve;
    });
    const blocker = t.ctx.sql.begin(async (tx) => {
      await tx`select id from alerts where external_id = 'known' for update`;
      holding();
      await blocked;
    });
    await held;

    // Changes the known alert (so it locks it) and adds a new one (whose foreign key names the integration).
    const batch = recordAlerts(t.ctx, integration.source, [alert('known', 'Changed'), alert('new')]);
    await waitFor(async () => (await waitingForLocks()) >= 1, { what: 'the batch to wait' });
    const deleted = deleteIntegration(t.ctx, integration.id);
    await waitFor(async () => (await waitingForLocks()) >= 2, { what: 'the delete to wait' });
    unblock();
    await blocker;

    // Before the fix: the delete held the integration and waited for the alert, the batch held the
    // alert and waited for the integration; PostgreSQL aborted one (or the batch hit the foreign key).
    await expect(batch).resolves.toMatchObject({ created: 1, updated: 1 });
    await expect(deleted).resolves.toBeUndefined();
    const rows = await t.ctx.sql<{ external_id: string; title: string; integration_id: string | null }[]>`
      select external_id, title, integration_id from alerts order by external_id`;
    expect(rows).toEqual([
      { external_id: 'known', title: 'Changed', integration_id: null },
      { external_id: 'new', title: 'Alert new', integration_id: null },
    ]);
    expect(t.logs.messages()).not.toContain('alert batch conflicted with another; retrying');
  });
});
