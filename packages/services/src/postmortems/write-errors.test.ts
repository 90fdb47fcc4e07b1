import { actionItems, postmortems, postmortemTemplates } from '@firebreak/db';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestContext, type TestContext } from '../testing/context';
import { refusingWriteErrors } from './write-errors';

// The refusals a race leaves to the constraints, written here without the checks in front of them (the
// race itself cannot be timed from a test): each must be the API's answer, not a 500.
let t: TestContext;
beforeAll(async () => {
  t = await createTestContext();
});
afterAll(() => t.cleanup());

const gone = '00000000-0000-4000-8000-00000000dead';
const at = new Date('2026-11-25T00:00:00Z');

async function incident(): Promise<string> {
  const [row] = await t.ctx.sql<{ id: string }[]>`
    insert into incidents (title, severity, status, source) values ('x', 'low', 'triggered', 'manual')
    returning id`;
  return row!.id;
}

describe('refusingWriteErrors', () => {
  it('answers an owner or template deleted before the write with 400 on the field that named it', async () => {
    const incidentId = await incident();
    await expect(
      refusingWriteErrors(
        actionItems.insertActionItem(t.ctx.sql, { incidentId, title: 'A', ownerId: gone, dueDate: null, at }),
      ),
    ).rejects.toMatchObject({
      code: 'validation_failed',
      details: [{ path: 'owner_id', message: 'no user has this id' }],
    });
    await expect(
      refusingWriteErrors(
        postmortems.insertPostmortem(t.ctx.sql, {
          incidentId,
          status: 'draft',
          content: '',
          templateId: gone,
          contentSource: 'template',
          updatedBy: null,
          at,
        }),
      ),
    ).rejects.toMatchObject({
      code: 'validation_failed',
      details: [{ path: 'template_id', message: 'no post-mortem template has this id' }],
    });
    expect(await postmortems.findPostmortem(t.ctx.sql, incidentId)).toBeUndefined();
  });

  it('answers a taken name or a second default with 409 conflict, and lets other errors through', async () => {
    const template = { name: 'Taken', content: '## A', isDefault: false, at };
    await postmortemTemplates.insertTemplate(t.ctx.sql, template);
    await expect(
      refusingWriteErrors(postmortemTemplates.insertTemplate(t.ctx.sql, template)),
    ).rejects.toMatchObject({ code: 'conflict' });
    await expect(
      refusingWriteErrors(
        postmortemTemplates.insertTemplate(t.ctx.sql, {
          ...template,
          name: 'Second default',
          isDefault: true,
        }),
      ),
    ).rejects.toMatchObject({ code: 'conflict' });
    await expect(refusingWriteErrors(t.ctx.sql`select 1/0`)).rejects.toMatchObject({ code: '22012' });
  });
});
