// Post-mortem documents (docs/postmortems.md): the document, templates, action items, comments and the
// Markdown export, through the API with real PostgreSQL.
import { oneUserPerRole, startTestApp, type TestRuntime, type TestUser } from '@firebreak/runtime/testing';
import { completePostmortem } from '@firebreak/services';
import { bodyOf, type JsonBody, type TestClient } from '@firebreak/testing';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createApp } from './app';

let runtime: TestRuntime;
let api: TestClient;
let admin: TestUser;
let member: TestUser;
let viewer: TestUser;
let other: TestUser;

beforeAll(async () => {
  ({
    runtime,
    api,
    users: { admin, member, viewer, other },
  } = await startTestApp(createApp, {
    users: { ...oneUserPerRole, other: { role: 'member', name: 'Otto Other' } },
  }));
});
afterAll(() => runtime.cleanup());

async function call(method: string, path: string, token: string, body?: unknown) {
  const res = await api(method, path, { token, ...(body === undefined ? {} : { body }) });
  return { status: res.status, body: res.status === 204 ? null : await bodyOf(res) };
}
async function ok(method: string, path: string, token: string, body: unknown, status: number) {
  const res = await call(method, path, token, body);
  expect(res.status, JSON.stringify(res.body)).toBe(status);
  return res.body as JsonBody;
}
async function openIncident(title = 'Checkout is down'): Promise<JsonBody> {
  return ok('POST', '/api/v1/incidents', member.token, { title, severity: 'critical' }, 201);
}
const doc = (incident: JsonBody) => `/api/v1/incidents/${incident.id}/postmortem`;
const save = (incident: JsonBody, body: Record<string, unknown>, token = member.token) =>
  call('PUT', doc(incident), token, body);
async function timelineTypes(incident: JsonBody): Promise<JsonBody[]> {
  const { body } = await call('GET', `/api/v1/incidents/${incident.id}/timeline`, viewer.token);
  return body.entries.filter((e: JsonBody) => e.type === 'postmortem_status_changed');
}
/** An AI draft landing as the worker lands it: a request, then the answer (no provider needed here). */
async function landDraft(incident: JsonBody, text: string): Promise<string> {
  const [request] = await runtime.sql<{ id: string }[]>`
    insert into ai_requests (kind, incident_id, created_at) values ('postmortem', ${incident.id}, now())
    returning id`;
  await completePostmortem(
    runtime.ctx,
    { id: request!.id, incidentId: incident.id },
    { text, model: 'test-model', cites: [] },
  );
  return request!.id;
}
async function defaultTemplate(): Promise<JsonBody> {
  const { body } = await call('GET', '/api/v1/postmortem-templates', viewer.token);
  return body.items.find((t: JsonBody) => t.is_default);
}

describe('the post-mortem document', () => {
  it('is 404 postmortem_not_found before anyone writes one, by uuid and by number', async () => {
    const incident = await openIncident();
    for (const ref of [incident.id, incident.number]) {
      const res = await call('GET', `/api/v1/incidents/${ref}/postmortem`, viewer.token);
      expect(res.status).toBe(404);
      expect(res.body.error.code).toBe('postmortem_not_found');
    }
    expect((await call('GET', '/api/v1/incidents/999999/postmortem', viewer.token)).body.error.code).toBe(
      'not_found',
    );
  });

  it('starts from the blameless default template and records who wrote it', async () => {
    const incident = await openIncident();
    const template = await defaultTemplate();
    expect(template.name).toBe('Blameless post-mortem');
    const created = await save(incident, { status: 'draft' });
    expect(created.status).toBe(200);
    expect(created.body).toEqual({
      incident_id: incident.id,
      status: 'draft',
      content: template.content,
      template_id: template.id,
      version: 1,
      content_source: 'template',
      created_at: expect.any(String),
      updated_at: expect.any(String),
      updated_by: { id: member.id, name: 'Mia Member' },
      ai_draft: null,
    });
    for (const heading of [
      'Summary',
      'Impact',
      'Timeline',
      'Root cause',
      'What went well',
      'What went wrong',
      'Action items',
      'Lessons learned',
    ]) {
      expect(created.body.content).toContain(`## ${heading}\n`);
    }
    const read = await call('GET', `/api/v1/incidents/${incident.number}/postmortem`, viewer.token);
    expect(read.body).toEqual(created.body);
    // A new draft is not a status change.
    expect(await timelineTypes(incident)).toEqual([]);
  });

  it('starts from a named template, or from the given content', async () => {
    const template = await ok(
      'POST',
      '/api/v1/postmortem-templates',
      admin.token,
      { name: `Short ${Date.now()}`, content: '## What happened\n\n## Next\n' },
      201,
    );
    const a = await openIncident();
    expect((await save(a, { status: 'draft', template_id: template.id })).body).toMatchObject({
      content: '## What happened\n\n## Next\n',
      template_id: template.id,
      content_source: 'template',
    });
    const b = await openIncident();
    expect((await save(b, { status: 'draft', content: '# Mine' })).body).toMatchObject({
      content: '# Mine',
      content_source: 'human',
    });
  });

  it('moves the version on every save and refuses a stale one with 409 postmortem_conflict', async () => {
    const incident = await openIncident();
    const v1 = (await save(incident, { status: 'draft', version: 0 })).body;
    expect(v1.version).toBe(1);
    const v2 = (await save(incident, { status: 'draft', content: 'Alice’s text', version: 1 })).body;
    expect(v2).toMatchObject({ version: 2, content: 'Alice’s text', content_source: 'human' });

    const stale = await save(incident, { status: 'draft', content: 'Bob’s text', version: 1 }, other.token);
    expect(stale.status).toBe(409);
    expect(stale.body.error).toMatchObject({ code: 'postmortem_conflict', details: { version: 2 } });
    const after = (await call('GET', doc(incident), viewer.token)).body;
    expect(after).toMatchObject({ version: 2, content: 'Alice’s text', updated_by: { id: member.id } });

    // Without a version the save is last-writer-wins.
    const v3 = (await save(incident, { status: 'draft', content: 'Bob’s text' }, other.token)).body;
    expect(v3).toMatchObject({ version: 3, updated_by: { id: other.id, name: 'Otto Other' } });
    // A version for a document that does not exist yet is stale too.
    const fresh = await openIncident();
    expect((await save(fresh, { status: 'draft', version: 3 })).body.error.code).toBe('postmortem_conflict');
    expect((await call('GET', doc(fresh), viewer.token)).status).toBe(404);
  });

  it('writes a postmortem_status_changed entry for each status change, with the actor', async () => {
    const incident = await openIncident();
    await save(incident, { status: 'draft' });
    await save(incident, { status: 'in_review' });
    await save(incident, { status: 'in_review', content: 'Reviewed text' });
    const published = await save(incident, { status: 'published' });
    expect(published.body).toMatchObject({ status: 'published', content: 'Reviewed text', version: 4 });
    const entries = await timelineTypes(incident);
    expect(entries.map((e) => e.data)).toEqual([
      { from: 'draft', to: 'in_review' },
      { from: 'in_review', to: 'published' },
    ]);
    expect(entries[0]!.actor).toEqual({ type: 'user', id: member.id, name: 'Mia Member' });
  });

  it('refuses bad input with 400 and viewers with 403, changing nothing', async () => {
    const incident = await openIncident();
    const bad = await save(incident, { status: 'finished', version: -1, template_id: 'nope' });
    expect(bad.status).toBe(400);
    expect(bad.body.error.details.map((d: JsonBody) => d.path).sort()).toEqual([
      'status',
      'template_id',
      'version',
    ]);
    const unknownTemplate = await save(incident, {
      status: 'draft',
      template_id: '00000000-0000-4000-8000-000000000000',
    });
    expect(unknownTemplate.status).toBe(400);
    expect(unknownTemplate.body.error.details).toEqual([
      { path: 'template_id', message: 'no post-mortem template has this id' },
    ]);
    expect((await save(incident, { status: 'draft' }, viewer.token)).status).toBe(403);
    expect((await call('GET', doc(incident), viewer.token)).status).toBe(404);
  });

  it('lets exactly one of two concurrent saves of the same version through; the other is 409', async () => {
    for (let round = 0; round < 5; round++) {
      const incident = await openIncident();
      await save(incident, { status: 'draft', content: 'Start', version: 0 });
      const results = await Promise.all([
        save(incident, { status: 'draft', content: 'Alice’s text', version: 1 }),
        save(incident, { status: 'draft', content: 'Bob’s text', version: 1 }, other.token),
      ]);
      expect(results.map((r) => r.status).sort()).toEqual([200, 409]);
      const winner = results.find((r) => r.status === 200)!.body;
      const after = (await call('GET', doc(incident), viewer.token)).body;
      expect(after).toMatchObject({ version: 2, content: winner.content });
    }
  });

  it('refuses a versioned save when an AI draft landed after the GET, and keeps the draft', async () => {
    const incident = await openIncident();
    await save(incident, { status: 'draft' });
    const loaded = (await call('GET', doc(incident), viewer.token)).body;
    expect(loaded).toMatchObject({ version: 1, content_source: 'template' });
    await landDraft(incident, '## Summary\nThe AI’s account.');

    const stale = await save(incident, { status: 'draft', content: 'Typed over the template', version: 1 });
    expect(stale.status).toBe(409);
    expect(stale.body.error).toMatchObject({ code: 'postmortem_conflict', details: { version: 2 } });
    expect((await call('GET', doc(incident), viewer.token)).body).toMatchObject({
      version: 2,
      content: '## Summary\nThe AI’s account.',
      content_source: 'ai',
      ai_draft: { status: 'done', applied: true },
    });
  });

  it('never lets an AI draft replace a document in review or published: the redraft waits', async () => {
    const incident = await openIncident();
    await landDraft(incident, '## Summary\nFirst draft.');
    const drafted = (await call('GET', doc(incident), viewer.token)).body;
    expect(drafted).toMatchObject({ content: '## Summary\nFirst draft.', content_source: 'ai', version: 2 });

    // Publishing the AI's text as it is: the people adopt it.
    const published = await save(incident, { status: 'published', version: drafted.version });
    expect(published.body).toMatchObject({
      status: 'published',
      content: '## Summary\nFirst draft.',
      content_source: 'human',
      version: 3,
      ai_draft: { applied: true },
    });

    await landDraft(incident, '## Summary\nSecond draft.');
    expect((await call('GET', doc(incident), viewer.token)).body).toMatchObject({
      status: 'published',
      content: '## Summary\nFirst draft.',
      content_source: 'human',
      version: 3,
      ai_draft: { status: 'done', content: '## Summary\nSecond draft.', applied: false },
    });
    const applied = (
      await call('GET', `/api/v1/incidents/${incident.id}/timeline`, viewer.token)
    ).body.entries
      .filter((e: JsonBody) => e.type === 'postmortem_drafted')
      .map((e: JsonBody) => e.data.applied);
    expect(applied).toEqual([true, false]);
  });

  it('keeps AI text under review even when nobody saved it since: a draft landing then waits', async () => {
    const incident = await openIncident();
    await landDraft(incident, '## Summary\nFirst draft.');
    // Back to draft after the review, the text is still the people's: the next draft waits too.
    await save(incident, { status: 'in_review' });
    await landDraft(incident, '## Summary\nWhile in review.');
    await save(incident, { status: 'draft' });
    await landDraft(incident, '## Summary\nBack in draft.');
    expect((await call('GET', doc(incident), viewer.token)).body).toMatchObject({
      status: 'draft',
      content: '## Summary\nFirst draft.',
      content_source: 'human',
      ai_draft: { content: '## Summary\nBack in draft.', applied: false },
    });
  });

  it('exports Markdown with a title line, the status, the text and the action items as a checklist', async () => {
    const incident = await openIncident('Checkout is down\nagain');
    const path = `/api/v1/incidents/${incident.number}/postmortem.md`;
    expect((await call('GET', path, viewer.token)).body.error.code).toBe('postmortem_not_found');
    await save(incident, { status: 'in_review', content: '## Summary\n\nThe cache expired.' });
    const items = `${doc(incident)}/action-items`;
    await ok(
      'POST',
      items,
      member.token,
      { title: 'Alert on cache age', owner_id: other.id, due_date: '2030-01-31' },
      201,
    );
    const done = await ok('POST', items, member.token, { title: 'Write the runbook' }, 201);
    await ok('PATCH', `${items}/${done.id}`, member.token, { status: 'done' }, 200);

    const res = await api('GET', path, { token: viewer.token });
    expect(res.status).toBe(200);
    expect(res.headers.get('content-type')).toBe('text/markdown; charset=utf-8');
    expect(res.headers.get('content-disposition')).toBe(
      `attachment; filename="incident-${incident.number}-postmortem.md"`,
    );
    const text = await res.text();
    const lines = text.split('\n');
    expect(lines[0]).toBe(`# Post-mortem: INC-${incident.number} Checkout is down again`);
    expect(lines[2]).toMatch(/^Status: In review · version 1 · updated /);
    expect(text).toContain('## Summary\n\nThe cache expired.\n');
    expect(text).toContain(
      '- [ ] Alert on cache age (owner: Otto Other, due 2030-01-31)\n- [x] Write the runbook\n',
    );
  });

  it('exports a text that leaves a code block open with the block closed, and escapes titles', async () => {
    const incident = await openIncident('Disk full <b>& more</b>');
    await save(incident, { status: 'draft', content: '## Timeline\n\n~~~~\n12:00 ```\n12:05 restart' });
    await ok(
      'POST',
      `${doc(incident)}/action-items`,
      member.token,
      { title: 'Reject <script>alert(1)</script>\n- [x] forged item' },
      201,
    );
    const text = await (
      await api('GET', `/api/v1/incidents/${incident.id}/postmortem.md`, { token: viewer.token })
    ).text();
    const lines = text.split('\n');
    expect(lines[0]).toBe(`# Post-mortem: INC-${incident.number} Disk full &lt;b&gt;&amp; more&lt;/b&gt;`);
    // The block opened with ~~~~ is closed with ~~~~ (the ``` inside it is text) before the checklist.
    expect(text).toContain('~~~~\n12:00 ```\n12:05 restart\n~~~~\n\n## Tracked action items\n');
    expect(text).toContain('\n- [ ] Reject &lt;script&gt;alert(1)&lt;/script&gt; - [x] forged item\n');
    expect(text).not.toContain('<script>');
    expect(lines.filter((line) => line.startsWith('- ['))).toHaveLength(1);
  });
});

describe('post-mortem templates', () => {
  const path = '/api/v1/postmortem-templates';

  it('lets admins create, change, re-default and delete templates, and audits each change', async () => {
    const original = await defaultTemplate();
    const created = await ok('POST', path, admin.token, { name: 'SRE review', content: '## A\n' }, 201);
    expect(created).toMatchObject({ name: 'SRE review', content: '## A\n', is_default: false });

    const renamed = await ok('PATCH', `${path}/${created.id}`, admin.token, { name: 'SRE review v2' }, 200);
    expect(renamed).toMatchObject({ name: 'SRE review v2', content: '## A\n' });
    // Making it the default takes the default from the shipped one: there is always exactly one.
    await ok('PATCH', `${path}/${created.id}`, admin.token, { is_default: true }, 200);
    const list = (await call('GET', path, viewer.token)).body.items;
    expect(list.filter((t: JsonBody) => t.is_default).map((t: JsonBody) => t.id)).toEqual([created.id]);
    expect(list[0].id).toBe(created.id);

    // The default can be neither unset nor deleted.
    for (const res of [
      await call('PATCH', `${path}/${created.id}`, admin.token, { is_default: false }),
      await call('DELETE', `${path}/${created.id}`, admin.token),
    ]) {
      expect(res.status).toBe(409);
      expect(res.body.error.code).toBe('template_is_default');
    }
    await ok('PATCH', `${path}/${original.id}`, admin.token, { is_default: true }, 200);
    expect((await call('DELETE', `${path}/${created.id}`, admin.token)).status).toBe(204);
    expect((await call('GET', `${path}/${created.id}`, viewer.token)).status).toBe(404);
    expect((await call('DELETE', `${path}/${created.id}`, admin.token)).status).toBe(404);

    const audit = (
      await call('GET', `/api/v1/audit-log?entity=postmortem_template&entity_id=${created.id}`, admin.token)
    ).body.entries;
    expect(audit.map((e: JsonBody) => e.action).reverse()).toEqual(['create', 'update', 'update', 'delete']);
    expect(audit[0].actor).toMatchObject({ type: 'user', id: admin.id });
  });

  it('answers two concurrent creates of one name with one 201 and one 409 conflict', async () => {
    for (let round = 0; round < 5; round++) {
      const name = `Raced ${round} ${Date.now()}`;
      const results = await Promise.all([
        call('POST', path, admin.token, { name, content: '## A' }),
        call('POST', path, admin.token, { name, content: '## B' }),
      ]);
      expect(results.map((r) => r.status).sort()).toEqual([201, 409]);
      expect(results.find((r) => r.status === 409)!.body.error.code).toBe('conflict');
      const list = (await call('GET', path, viewer.token)).body.items;
      expect(list.filter((t: JsonBody) => t.name === name)).toHaveLength(1);
    }
  });

  it('refuses members, duplicate names and empty fields', async () => {
    expect((await call('POST', path, member.token, { name: 'X', content: '## A' })).status).toBe(403);
    await ok('POST', path, admin.token, { name: 'Twice', content: '## A' }, 201);
    const twice = await call('POST', path, admin.token, { name: 'Twice', content: '## B' });
    expect(twice.status).toBe(409);
    expect(twice.body.error.code).toBe('conflict');
    const empty = await call('POST', path, admin.token, { name: ' ', content: '' });
    expect(empty.status).toBe(400);
    expect(empty.body.error.details.map((d: JsonBody) => d.path).sort()).toEqual(['content', 'name']);
  });
});

describe('action items', () => {
  it('adds, changes, completes, reopens and deletes an incident’s items', async () => {
    const incident = await openIncident('Queue backlog');
    const items = `${doc(incident)}/action-items`;
    const item = await ok(
      'POST',
      items,
      member.token,
      { title: ' Add a queue-depth alert ', owner_id: other.id, due_date: '2030-02-28' },
      201,
    );
    expect(item).toEqual({
      id: expect.any(String),
      incident_id: incident.id,
      incident_number: incident.number,
      incident_title: 'Queue backlog',
      title: 'Add a queue-depth alert',
      owner: { id: other.id, name: 'Otto Other' },
      due_date: '2030-02-28',
      status: 'open',
      created_at: expect.any(String),
      updated_at: expect.any(String),
      completed_at: null,
    });
    const done = await ok(
      'PATCH',
      `${items}/${item.id}`,
      member.token,
      { status: 'done', owner_id: null, due_date: null },
      200,
    );
    expect(done).toMatchObject({
      status: 'done',
      owner: null,
      due_date: null,
      completed_at: expect.any(String),
    });
    const reopened = await ok('PATCH', `${items}/${item.id}`, member.token, { status: 'open' }, 200);
    expect(reopened).toMatchObject({ status: 'open', completed_at: null, title: 'Add a queue-depth alert' });
    expect((await call('GET', items, viewer.token)).body.items.map((i: JsonBody) => i.id)).toEqual([item.id]);

    expect((await call('DELETE', `${items}/${item.id}`, member.token)).status).toBe(204);
    expect((await call('GET', items, viewer.token)).body.items).toEqual([]);
    expect((await call('DELETE', `${items}/${item.id}`, member.token)).status).toBe(404);
    expect((await call('PATCH', `${items}/${item.id}`, member.token, { title: 'x' })).status).toBe(404);
  });

  it('refuses bad titles, dates and owners with 400, viewers with 403, and items of another incident with 404', async () => {
    const incident = await openIncident();
    const items = `${doc(incident)}/action-items`;
    const bad = await call('POST', items, member.token, { title: '  ', due_date: '2030-02-30' });
    expect(bad.status).toBe(400);
    expect(bad.body.error.details.map((d: JsonBody) => d.path).sort()).toEqual(['due_date', 'title']);
    const longTitle = await call('POST', items, member.token, { title: 'x'.repeat(501) });
    expect(longTitle.status).toBe(400);
    const owner = await call('POST', items, member.token, {
      title: 'A',
      owner_id: '00000000-0000-4000-8000-000000000000',
    });
    expect(owner.body.error.details).toEqual([{ path: 'owner_id', message: 'no user has this id' }]);
    expect((await call('POST', items, viewer.token, { title: 'A' })).status).toBe(403);
    expect((await call('GET', items, viewer.token)).body.items).toEqual([]);

    const item = await ok('POST', items, member.token, { title: 'A' }, 201);
    expect(
      (await call('PATCH', `${items}/${item.id}`, member.token, { due_date: '31/01/2030' })).status,
    ).toBe(400);
    expect((await call('PATCH', `${items}/${item.id}`, viewer.token, { status: 'done' })).status).toBe(403);
    const elsewhere = await openIncident();
    expect(
      (await call('PATCH', `${doc(elsewhere)}/action-items/${item.id}`, member.token, { status: 'done' }))
        .status,
    ).toBe(404);
    expect((await call('GET', `${items}`, viewer.token)).body.items[0].status).toBe('open');
  });

  it('lists across incidents: overdue first, then by due date, undated last, paged and filtered', async () => {
    await runtime.sql`delete from postmortem_action_items`;
    const day = (offset: number) => new Date(Date.now() + offset * 86_400_000).toISOString().slice(0, 10);
    const a = await openIncident('Incident A');
    const b = await openIncident('Incident B');
    const add = async (incident: JsonBody, title: string, extra: Record<string, unknown> = {}) =>
      ok('POST', `${doc(incident)}/action-items`, member.token, { title, ...extra }, 201);
    await add(a, 'undated');
    await add(b, 'due in 10 days', { due_date: day(10), owner_id: other.id });
    await add(a, 'overdue by 2 days', { due_date: day(-2), owner_id: member.id });
    await add(b, 'due in 3 days', { due_date: day(3), owner_id: member.id });
    await add(b, 'overdue by 5 days', { due_date: day(-5) });
    const finished = await add(a, 'done long ago', { due_date: day(-30) });
    await ok('PATCH', `${doc(a)}/action-items/${finished.id}`, member.token, { status: 'done' }, 200);

    const titles = (page: JsonBody) => page.items.map((i: JsonBody) => i.title);
    const open = await ok('GET', '/api/v1/action-items?status=open', viewer.token, undefined, 200);
    expect(titles(open)).toEqual([
      'overdue by 5 days',
      'overdue by 2 days',
      'due in 3 days',
      'due in 10 days',
      'undated',
    ]);
    expect(open.next_cursor).toBeNull();
    expect(open.items[0]).toMatchObject({ incident_number: b.number, incident_title: 'Incident B' });

    // Paged two at a time, the pages join up to the same order.
    const seen: string[] = [];
    let cursor: string | null = '';
    while (cursor !== null) {
      const page: JsonBody = await ok(
        'GET',
        `/api/v1/action-items?status=open&limit=2${cursor ? `&cursor=${cursor}` : ''}`,
        viewer.token,
        undefined,
        200,
      );
      expect(page.items.length).toBeLessThanOrEqual(2);
      seen.push(...titles(page));
      cursor = page.next_cursor;
    }
    expect(seen).toEqual(titles(open));

    // A done item is not overdue, whatever its date.
    expect(titles(await ok('GET', '/api/v1/action-items', viewer.token, undefined, 200))).toEqual([
      'overdue by 5 days',
      'overdue by 2 days',
      'done long ago',
      'due in 3 days',
      'due in 10 days',
      'undated',
    ]);
    expect(titles(await ok('GET', '/api/v1/action-items?status=done', viewer.token, undefined, 200))).toEqual(
      ['done long ago'],
    );
    expect(titles(await ok('GET', '/api/v1/action-items?owner_id=me', member.token, undefined, 200))).toEqual(
      ['overdue by 2 days', 'due in 3 days'],
    );
    expect(
      titles(await ok('GET', `/api/v1/action-items?owner_id=${other.id}`, viewer.token, undefined, 200)),
    ).toEqual(['due in 10 days']);

    for (const query of ['status=later', 'owner_id=someone', 'cursor=forged', 'limit=0']) {
      const res = await call('GET', `/api/v1/action-items?${query}`, viewer.token);
      expect(res.status, query).toBe(400);
      expect(res.body.error.code).toBe('validation_failed');
    }
  });
});

describe('action items under concurrency and odd input', () => {
  const encode = (position: Record<string, unknown>) =>
    Buffer.from(JSON.stringify(position)).toString('base64url');

  it('keeps both of two concurrent changes of different fields', async () => {
    const incident = await openIncident();
    const items = `${doc(incident)}/action-items`;
    for (let round = 0; round < 8; round++) {
      const item = await ok('POST', items, member.token, { title: `Item ${round}` }, 201);
      await Promise.all([
        ok('PATCH', `${items}/${item.id}`, member.token, { title: `Renamed ${round}` }, 200),
        ok('PATCH', `${items}/${item.id}`, other.token, { status: 'done' }, 200),
      ]);
      const [after] = (await call('GET', items, viewer.token)).body.items.filter(
        (i: JsonBody) => i.id === item.id,
      );
      expect(after).toMatchObject({
        title: `Renamed ${round}`,
        status: 'done',
        completed_at: expect.any(String),
      });
    }
  });

  it('refuses due dates outside the years 1900 to 9999 with 400, changing nothing', async () => {
    const incident = await openIncident();
    const items = `${doc(incident)}/action-items`;
    for (const due_date of ['0001-01-01', '1899-12-31', '10000-01-01', '+20000-01-01']) {
      const res = await call('POST', items, member.token, { title: 'A', due_date });
      expect(res.status, due_date).toBe(400);
      expect(res.body.error.details.map((d: JsonBody) => d.path)).toEqual(['due_date']);
    }
    const item = await ok('POST', items, member.token, { title: 'A', due_date: '1900-01-01' }, 201);
    expect(
      (await call('PATCH', `${items}/${item.id}`, member.token, { due_date: '0200-02-02' })).status,
    ).toBe(400);
    expect((await call('GET', items, viewer.token)).body.items.map((i: JsonBody) => i.due_date)).toEqual([
      '1900-01-01',
    ]);
    await ok('PATCH', `${items}/${item.id}`, member.token, { due_date: '9999-12-31' }, 200);
  });

  it('answers a cursor with an impossible date, instant, id or day with 400 validation_failed', async () => {
    const good = {
      r: 1,
      d: '2030-01-01',
      c: '2030-01-01T00:00:00.000Z',
      i: '00000000-0000-4000-8000-000000000000',
      t: '2030-01-01',
    };
    expect((await call('GET', `/api/v1/action-items?cursor=${encode(good)}`, viewer.token)).status).toBe(200);
    for (const forged of [
      { d: '2030-13-45' },
      { d: '2030-02-30' },
      { d: '0001-01-01' },
      { c: '2030-01-01T25:00:00.000Z' },
      { c: '+275760-09-13T00:00:00.000Z' },
      { c: '2030' },
      { i: 'not-a-uuid' },
      { t: '2030-00-10' },
      { t: undefined },
      { r: 7 },
    ]) {
      const res = await call(
        'GET',
        `/api/v1/action-items?cursor=${encode({ ...good, ...forged })}`,
        viewer.token,
      );
      expect(res.status, JSON.stringify(forged)).toBe(400);
      expect(res.body.error).toMatchObject({ code: 'validation_failed', details: [{ path: 'cursor' }] });
    }
  });

  const walk = async (limit: number, between: (page: number) => void = () => {}) => {
    const seen: string[] = [];
    let cursor: string | null = '';
    for (let page = 0; cursor !== null; page++) {
      between(page);
      const body: JsonBody = await ok(
        'GET',
        `/api/v1/action-items?status=open&limit=${limit}${cursor ? `&cursor=${cursor}` : ''}`,
        viewer.token,
        undefined,
        200,
      );
      expect(body.items.length).toBeLessThanOrEqual(limit);
      seen.push(...body.items.map((i: JsonBody) => i.title));
      cursor = body.next_cursor;
    }
    return seen;
  };

  it('walks items with equal due dates one page at a time, each exactly once', async () => {
    await runtime.sql`delete from postmortem_action_items`;
    const a = await openIncident();
    const b = await openIncident();
    const titles: string[] = [];
    for (let n = 0; n < 6; n++) {
      const title = `same day ${n}`;
      titles.push(title);
      await ok(
        'POST',
        `${doc(n % 2 ? a : b)}/action-items`,
        member.token,
        { title, due_date: '2031-05-05' },
        201,
      );
    }
    const seen = await walk(1);
    expect(seen).toHaveLength(6);
    expect([...seen].sort()).toEqual(titles);
  });

  it('keeps the first page’s day for later pages, so paging across UTC midnight skips nothing', async () => {
    await runtime.sql`delete from postmortem_action_items`;
    const incident = await openIncident();
    const add = (title: string, due_date: string) =>
      ok('POST', `${doc(incident)}/action-items`, member.token, { title, due_date }, 201);
    // Midnight between yesterday and today (UTC): back in time, so the test's sessions stay valid.
    const realNow = runtime.ctx.now;
    const today = realNow().toISOString().slice(0, 10);
    const day = (offset: number) =>
      new Date(Date.parse(today) + offset * 86_400_000).toISOString().slice(0, 10);
    await add('overdue', day(-2));
    await add('due yesterday 1', day(-1));
    await add('due yesterday 2', day(-1));
    await add('later', day(1));
    const order = ['overdue', 'due yesterday 1', 'due yesterday 2', 'later'];
    try {
      // Two pages just before midnight, the rest just after it, when the "due today" items became overdue.
      const seen = await walk(1, (page) => {
        const at = page < 2 ? `${day(-1)}T23:59:00Z` : `${today}T00:01:00Z`;
        runtime.ctx.now = () => new Date(at);
      });
      expect(seen).toEqual(order);
      runtime.ctx.now = realNow;
      // A new walk starts from its own day.
      expect(await walk(10)).toEqual(order);
    } finally {
      runtime.ctx.now = realNow;
    }
  });
});

describe('comments', () => {
  it('lists oldest first; the author or an admin deletes, anyone else gets 403', async () => {
    const incident = await openIncident();
    const path = `${doc(incident)}/comments`;
    const first = await ok('POST', path, member.token, { body: 'Is the impact right?' }, 201);
    expect(first).toEqual({
      id: expect.any(String),
      author: { id: member.id, name: 'Mia Member' },
      body: 'Is the impact right?',
      created_at: expect.any(String),
    });
    const second = await ok('POST', path, other.token, { body: 'Yes, checked.' }, 201);
    const list = (await call('GET', path, viewer.token)).body.items;
    expect(list.map((c: JsonBody) => c.body)).toEqual(['Is the impact right?', 'Yes, checked.']);

    const foreign = await call('DELETE', `${path}/${first.id}`, other.token);
    expect(foreign.status).toBe(403);
    expect(foreign.body.error.code).toBe('forbidden');
    expect((await call('DELETE', `${path}/${first.id}`, viewer.token)).status).toBe(403);
    expect((await call('GET', path, viewer.token)).body.items).toHaveLength(2);

    expect((await call('DELETE', `${path}/${first.id}`, member.token)).status).toBe(204);
    expect((await call('DELETE', `${path}/${second.id}`, admin.token)).status).toBe(204);
    expect((await call('GET', path, viewer.token)).body.items).toEqual([]);
    expect((await call('DELETE', `${path}/${second.id}`, admin.token)).status).toBe(404);
  });

  it('refuses empty and over-long comments and viewers', async () => {
    const incident = await openIncident();
    const path = `${doc(incident)}/comments`;
    expect((await call('POST', path, member.token, { body: '   ' })).status).toBe(400);
    expect((await call('POST', path, member.token, { body: 'x'.repeat(10_001) })).status).toBe(400);
    expect((await call('POST', path, viewer.token, { body: 'Hello' })).status).toBe(403);
    expect((await call('GET', path, viewer.token)).body.items).toEqual([]);
    expect((await call('GET', '/api/v1/incidents/999999/postmortem/comments', viewer.token)).status).toBe(
      404,
    );
  });
});
