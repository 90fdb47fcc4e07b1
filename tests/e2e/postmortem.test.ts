// An incident's post-mortem in a real browser against the real server routes, on this file's own
// database, with the fake AI provider and a worker: start from the default template, write Markdown and
// read the live preview (raw HTML and script in the text are not rendered), save with a status, reload,
// keep what is typed while a save is on its way, lose a race to another writer and see the conflict said
// plainly (their version loaded, mine still on the page), take an AI draft that waited beside people's
// text, be asked before a link drops unsaved text, add / complete / edit / delete an action item,
// comment (what is typed while one is being added stays), and find the item on the Action items page;
// then the settings of what happens after an incident, due dates read as UTC days in a time zone on
// another day, and a start that would have set someone else's new post-mortem back to a draft. Each
// screen passes axe-core's WCAG 2.1 A/AA rules.
import { createTestUser, type TestUser } from '@firebreak/runtime/testing';
import { bodyOf, type FakeAiProvider, startFakeAiProvider } from '@firebreak/testing';
import { type RunningWorker, startWorker } from '@firebreak/worker';
import type { Browser, Locator, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { expectNoAxeViolations } from './support/axe';
import { laptop, launchBrowser, logIn, screenshot } from './support/browser';
import { startWebTestServer, type WebTestServer } from './support/web-server';

const AI_KEY = 'postmortem-e2e-ai-key';
const TITLE = 'Checkout errors after deploy 412';
const AI_DRAFT = '## Summary\n\nThe AI says: a bad deploy broke checkout for 25 minutes.';
const WRITTEN = [
  '## Summary',
  '',
  'Checkout failed for **25 minutes** after deploy 412.',
  '',
  '| Metric | Value |',
  '|---|---|',
  '| Failed orders | 312 |',
  '',
  '<script>window.pwned = "script"</script>',
  '<img src="x" onerror="window.pwned = \'img\'">',
  '<b class="raw-html">raw bold</b>',
  '',
  '- [x] rolled back',
].join('\n');

let server: WebTestServer;
let fake: FakeAiProvider;
let worker: RunningWorker;
let browser: Browser;
let page: Page;
let bea: TestUser;
let incident: { id: string; number: number };
/** What the page asked in dialogs, and whether the person says yes (the default) or no. */
const dialogs: string[] = [];
let answerDialogs = true;

const json = async (method: string, path: string, body?: unknown) => {
  const response = await server.api(method, path, body);
  expect(response.ok, `${method} ${path} answered ${response.status}`).toBe(true);
  return response.status === 204 ? undefined : bodyOf(response);
};
const editor = () => page.getByRole('form', { name: 'Post-mortem editor' });
const markdownField = () => editor().getByLabel(/^Markdown/);
const preview = () => editor().getByRole('region', { name: 'Preview' });
const yesterday = () => new Date(Date.now() - 86_400_000).toISOString().slice(0, 10);
const isFocused = (locator: Locator) =>
  locator.evaluate((element) => element === element.ownerDocument.activeElement);

/** Holds the page's `method` requests to `url` at the network until `release()`, as a slow server would. */
async function holdRequests(url: string, method: string) {
  let release = () => {};
  const held = new Promise<void>((resolve) => {
    release = resolve;
  });
  let reach = () => {};
  const reached = new Promise<void>((resolve) => {
    reach = resolve;
  });
  await page.route(url, async (route) => {
    if (route.request().method() !== method) return route.fallback();
    reach();
    await held;
    await route.continue();
  });
  return { reached, release: () => release(), stop: () => page.unroute(url) };
}

beforeAll(async () => {
  fake = await startFakeAiProvider({ apiKey: AI_KEY, responder: () => AI_DRAFT });
  server = await startWebTestServer({
    env: {
      AI_PROVIDER: 'openai',
      AI_BASE_URL: fake.openAiBaseUrl,
      AI_API_KEY: AI_KEY,
      AI_MODEL: 'postmortem-e2e-model',
    },
  });
  worker = await startWorker(server.runtime.ctx, {
    redis: server.runtime.redisConfig,
    ai: server.runtime.config.ai,
    intervalMs: 200,
  });
  bea = await createTestUser(server.runtime, 'member', 'Bea Backup');
  incident = await json('POST', '/api/v1/incidents', { title: TITLE, severity: 'critical' });
  browser = await launchBrowser();
  page = await (await browser.newContext(laptop)).newPage();
  // Deleting, replacing and leaving unsaved text ask first; the test is the person answering.
  page.on('dialog', (dialog) => {
    dialogs.push(dialog.message());
    void (answerDialogs ? dialog.accept() : dialog.dismiss());
  });
  page.setDefaultTimeout(10_000);
  await logIn(page, server.url, server.admin.email, server.admin.password);
});
afterAll(async () => {
  await browser?.close();
  await worker?.stop();
  await server?.close();
  await fake?.close();
});

describe('the post-mortem editor', () => {
  it('starts the post-mortem from the default template, reached from the incident page', async () => {
    await page.goto(`${server.url}/incidents/${incident.number}`);
    await page.getByRole('link', { name: 'Write the post-mortem' }).click();
    await page
      .getByRole('heading', { level: 1, name: new RegExp(`Post-mortem: #${incident.number}`) })
      .waitFor();
    const template = page.getByRole('combobox', { name: /^Template/ });
    expect(await template.locator('option:checked').textContent()).toBe('Blameless post-mortem (default)');
    await expectNoAxeViolations(page, 'the post-mortem page before it is started');
    await page.getByRole('button', { name: 'Start from this template' }).click();

    await markdownField().waitFor();
    expect(await markdownField().inputValue()).toContain('## Root cause');
    await preview().getByRole('heading', { level: 2, name: 'Lessons learned' }).waitFor();
    const doc = await json('GET', `/api/v1/incidents/${incident.id}/postmortem`);
    expect(doc).toMatchObject({ status: 'draft', content_source: 'template', version: expect.any(Number) });
  });

  it('shows the Markdown formatted as it is typed, never its HTML', async () => {
    await markdownField().fill(WRITTEN);
    await preview().getByRole('heading', { level: 2, name: 'Summary' }).waitFor();
    expect(await preview().locator('strong').textContent()).toBe('25 minutes');
    expect(await preview().getByRole('cell', { name: '312' }).count()).toBe(1);
    expect(await preview().getByRole('img', { name: 'done' }).count()).toBe(1);
    // Raw HTML in the text is dropped: no element made from it, and nothing it carried ran.
    expect(await preview().locator('script, img, b, .raw-html').count()).toBe(0);
    expect(await page.evaluate('window.pwned')).toBeUndefined();
    expect(await editor().getByText('Unsaved changes').count()).toBe(1);
  });

  it('saves the text with its status and shows it again after a reload', async () => {
    await editor().getByLabel('Status').selectOption('in_review');
    await editor().getByRole('button', { name: 'Save post-mortem' }).click();
    await editor().getByText('Saved', { exact: true }).waitFor();
    const doc = await json('GET', `/api/v1/incidents/${incident.id}/postmortem`);
    expect(doc).toMatchObject({
      content: WRITTEN,
      status: 'in_review',
      content_source: 'human',
      updated_by: { name: 'Ada Admin' },
    });
    const { entries } = await json('GET', `/api/v1/incidents/${incident.id}/timeline`);
    expect(entries.find((e: { type: string }) => e.type === 'postmortem_status_changed')?.data).toMatchObject(
      {
        from: 'draft',
        to: 'in_review',
      },
    );

    await page.reload();
    await markdownField().waitFor();
    expect(await markdownField().inputValue()).toBe(WRITTEN);
    expect(await editor().getByLabel('Status').inputValue()).toBe('in_review');
    await preview().getByRole('cell', { name: '312' }).waitFor();
    const download = page.getByRole('link', { name: 'Download Markdown' });
    expect(await download.getAttribute('href')).toBe(`/api/v1/incidents/${incident.id}/postmortem.md`);
    await expectNoAxeViolations(page, 'the post-mortem editor');
    await screenshot(page, 'postmortem-editor');
  });

  it('keeps what is typed while a save is on its way', async () => {
    const sent = `${WRITTEN}\n\nFirst thought.`;
    const typed = `${sent} Second thought, typed during the save.`;
    const saving = await holdRequests(`**/api/v1/incidents/${incident.id}/postmortem`, 'PUT');
    await markdownField().fill(sent);
    await editor().getByRole('button', { name: 'Save post-mortem' }).click();
    await saving.reached;
    await markdownField().fill(typed);
    saving.release();
    await expect
      .poll(async () => (await json('GET', `/api/v1/incidents/${incident.id}/postmortem`)).content)
      .toBe(sent);
    await editor().getByRole('button', { name: 'Save post-mortem' }).waitFor();
    await saving.stop();

    expect(await markdownField().inputValue()).toBe(typed);
    await editor().getByText('Unsaved changes').waitFor();
    // The kept text is based on the version just saved: saving it is not a conflict with myself.
    await editor().getByRole('button', { name: 'Save post-mortem' }).click();
    await editor().getByText('Saved', { exact: true }).waitFor();
    expect((await json('GET', `/api/v1/incidents/${incident.id}/postmortem`)).content).toBe(typed);
    expect(await editor().getByRole('alert').count()).toBe(0);
  });

  it('refuses a save that would overwrite someone else’s, keeps my text, and loads theirs on request', async () => {
    const mine = `${WRITTEN}\n\nMy late addition.`;
    await markdownField().fill(mine);
    const current = await json('GET', `/api/v1/incidents/${incident.id}/postmortem`);
    await json('PUT', `/api/v1/incidents/${incident.id}/postmortem`, {
      status: 'in_review',
      content: '## Summary\n\nTheir version.',
      version: current.version,
    });

    await editor().getByRole('button', { name: 'Save post-mortem' }).click();
    const conflict = editor().getByRole('alert').filter({ hasText: 'Someone else saved this post-mortem' });
    await conflict.waitFor();
    expect(await markdownField().inputValue()).toBe(mine);
    expect((await json('GET', `/api/v1/incidents/${incident.id}/postmortem`)).content).toBe(
      '## Summary\n\nTheir version.',
    );
    await expectNoAxeViolations(page, 'the post-mortem editor with a conflict');

    await conflict.getByRole('button', { name: /^Load the latest version/ }).click();
    await expect.poll(() => markdownField().inputValue()).toBe('## Summary\n\nTheir version.');
    expect(await conflict.count()).toBe(0);
    // Mine is not thrown away: it stays on the page to copy from until I let it go.
    const kept = editor().getByLabel(/^Your text before you loaded the latest version/);
    expect(await kept.inputValue()).toBe(mine);
    await expectNoAxeViolations(page, 'the post-mortem editor with my text kept after a conflict');
    await editor()
      .getByRole('button', { name: /^I have what I need/ })
      .click();
    expect(await kept.count()).toBe(0);
  });

  it('keeps people’s text when an AI draft lands, and replaces it only when asked', async () => {
    await page.getByRole('button', { name: 'Ask the AI for a new draft' }).click();
    const waiting = page.getByRole('status').filter({ hasText: 'An AI draft is ready' });
    await waiting.waitFor({ timeout: 20_000 });
    expect(await markdownField().inputValue()).toBe('## Summary\n\nTheir version.');
    const before = await json('GET', `/api/v1/incidents/${incident.id}/postmortem`);
    expect(before.ai_draft).toMatchObject({ status: 'done', applied: false, content: AI_DRAFT });

    await waiting.getByRole('button', { name: 'Replace with the AI draft' }).click();
    await expect.poll(() => markdownField().inputValue()).toBe(AI_DRAFT);
    const after = await json('GET', `/api/v1/incidents/${incident.id}/postmortem`);
    expect(after.content).toBe(AI_DRAFT);
    expect(after.version).toBeGreaterThan(before.version);
  });

  it('asks before a link in the console leaves unsaved text behind', async () => {
    const text = `${AI_DRAFT}\n\nNot saved yet.`;
    await markdownField().fill(text);
    dialogs.length = 0;
    answerDialogs = false;
    await page.getByRole('link', { name: `← Incident ${incident.number}` }).click();
    await expect.poll(() => dialogs.length).toBe(1);
    answerDialogs = true;
    expect(dialogs[0]).toContain('unsaved text');
    expect(await markdownField().inputValue()).toBe(text);
    await editor().getByRole('button', { name: 'Save post-mortem' }).click();
    await editor().getByText('Saved', { exact: true }).waitFor();
  });
});

describe('action items and comments', () => {
  it('adds an action item with an owner and a due date, shown overdue when the date is past', async () => {
    const form = page.getByRole('form', { name: 'Add an action item' });
    await form.getByLabel('New action item').fill('Alert on replication lag');
    await form.getByLabel('Owner').selectOption({ label: 'Bea Backup' });
    await form.getByLabel('Due date').fill(yesterday());
    await form.getByRole('button', { name: 'Add action item' }).click();

    const list = page.getByRole('list', { name: 'Action items of this incident' });
    const item = list.getByRole('listitem').filter({ hasText: 'Alert on replication lag' });
    await item.getByText('Overdue').waitFor();
    expect(await item.textContent()).toContain('Bea Backup');
    const { items } = await json('GET', `/api/v1/incidents/${incident.id}/postmortem/action-items`);
    expect(items).toEqual([
      expect.objectContaining({
        title: 'Alert on replication lag',
        owner: { id: bea.id, name: 'Bea Backup' },
        due_date: yesterday(),
        status: 'open',
      }),
    ]);
    expect(await form.getByLabel('New action item').inputValue()).toBe('');
  });

  it('marks it done and open again, and edits it', async () => {
    const item = () =>
      page.getByRole('list', { name: 'Action items of this incident' }).getByRole('listitem').first();
    const readItem = async () =>
      (await json('GET', `/api/v1/incidents/${incident.id}/postmortem/action-items`)).items[0];
    await item().getByRole('checkbox').click();
    await expect.poll(async () => (await readItem()).status).toBe('done');
    await item().getByText('Done', { exact: false }).waitFor();
    expect(await item().getByText('Overdue').count()).toBe(0);
    await item().getByRole('checkbox').click();
    await expect.poll(async () => (await readItem()).status).toBe('open');

    // Bea has left: the form still says whose the item is, and saving it keeps her as its owner.
    await json('PATCH', `/api/v1/users/${bea.id}`, { active: false });
    await page.reload();
    await item().getByRole('button', { name: 'Edit Alert on replication lag' }).click();
    const edit = page.getByRole('form', { name: 'Edit Alert on replication lag' });
    expect(await edit.getByLabel('Owner').locator('option:checked').textContent()).toBe('Bea Backup');
    // The form takes the focus, and gives it back to Edit when it closes.
    await expect.poll(() => isFocused(edit.getByLabel('Title'))).toBe(true);
    await edit.getByLabel('Title').fill('Alert on replication lag above 30 s');
    await edit.getByRole('button', { name: 'Save' }).click();
    await item().getByText('Alert on replication lag above 30 s').waitFor();
    const editAgain = item().getByRole('button', { name: 'Edit Alert on replication lag above 30 s' });
    await expect.poll(() => isFocused(editAgain)).toBe(true);
    expect(await readItem()).toMatchObject({
      title: 'Alert on replication lag above 30 s',
      status: 'open',
      owner: { id: bea.id, name: 'Bea Backup' },
    });
    await json('PATCH', `/api/v1/users/${bea.id}`, { active: true });
  });

  it('keeps what is typed into the comment field while the last comment is being added', async () => {
    const form = page.getByRole('form', { name: 'Add a comment' });
    const field = form.getByLabel('Add a comment');
    const adding = await holdRequests(`**/api/v1/incidents/${incident.id}/postmortem/comments`, 'POST');
    await field.fill('First remark.');
    await form.getByRole('button', { name: 'Add comment' }).click();
    await adding.reached;
    await field.fill('First remark. And a second one.');
    adding.release();
    const comments = page.getByRole('list', { name: 'Comments on the post-mortem' });
    await comments.getByText('First remark.', { exact: true }).waitFor();
    await adding.stop();
    expect(await field.inputValue()).toBe('First remark. And a second one.');

    const { items } = await json('GET', `/api/v1/incidents/${incident.id}/postmortem/comments`);
    await json('DELETE', `/api/v1/incidents/${incident.id}/postmortem/comments/${items[0].id}`);
    await field.fill('');
  });

  it('adds a comment and deletes it again', async () => {
    const form = page.getByRole('form', { name: 'Add a comment' });
    await form.getByLabel('Add a comment').fill('Can we add the error budget burn to the impact?');
    await form.getByRole('button', { name: 'Add comment' }).click();
    const comments = page.getByRole('list', { name: 'Comments on the post-mortem' });
    await comments.getByText('Can we add the error budget burn to the impact?').waitFor();
    const { items } = await json('GET', `/api/v1/incidents/${incident.id}/postmortem/comments`);
    expect(items).toEqual([
      expect.objectContaining({
        body: 'Can we add the error budget burn to the impact?',
        author: { id: server.admin.id, name: 'Ada Admin' },
      }),
    ]);
    await expectNoAxeViolations(page, 'the post-mortem page with an action item and a comment');

    await comments.getByRole('button', { name: /^Delete the comment of / }).click();
    await page.getByText('No comments yet.').waitFor();
    expect((await json('GET', `/api/v1/incidents/${incident.id}/postmortem/comments`)).items).toEqual([]);
  });
});

describe('the Action items page', () => {
  it('lists open items across incidents, overdue first and marked, linking to the post-mortem', async () => {
    const other = await json('POST', '/api/v1/incidents', { title: 'Queue backlog', severity: 'low' });
    await json('POST', `/api/v1/incidents/${other.id}/postmortem/action-items`, {
      title: 'Document the queue runbook',
      owner_id: server.admin.id,
    });

    await page.getByRole('navigation', { name: 'Main' }).getByText('Follow-up').click();
    await page.getByRole('navigation', { name: 'Main' }).getByRole('link', { name: 'Action items' }).click();
    await page.getByRole('heading', { level: 1, name: 'Action items' }).waitFor();
    const table = page.getByRole('table', { name: 'Action items' });
    await table.getByRole('cell', { name: 'Document the queue runbook', exact: true }).waitFor();
    const rows = table.locator('tbody tr');
    expect(await rows.count()).toBe(2);
    expect(await rows.nth(0).textContent()).toContain('Alert on replication lag above 30 s');
    expect(await rows.nth(0).textContent()).toContain('Overdue');
    expect(await rows.nth(1).textContent()).not.toContain('Overdue');
    await expectNoAxeViolations(page, 'the Action items page');
    await screenshot(page, 'action-items');

    // Mine: the admin owns only the runbook item.
    await page.getByLabel('Owner').selectOption('me');
    await expect.poll(() => rows.count()).toBe(1);
    expect(await rows.first().textContent()).toContain('Document the queue runbook');
    await page.getByLabel('Owner').selectOption('');
    await expect.poll(() => rows.count()).toBe(2);

    await rows
      .nth(0)
      .getByRole('link', { name: new RegExp(`#${incident.number}`) })
      .click();
    await page
      .getByRole('heading', { level: 1, name: new RegExp(`Post-mortem: #${incident.number}`) })
      .waitFor();
  });

  it('deletes the action item from the post-mortem page', async () => {
    const list = page.getByRole('list', { name: 'Action items of this incident' });
    await list.getByRole('button', { name: 'Delete Alert on replication lag above 30 s' }).click();
    await page.getByText('No action items yet.').waitFor();
    expect((await json('GET', `/api/v1/incidents/${incident.id}/postmortem/action-items`)).items).toEqual([]);
  });
});

describe('the settings after the incident', () => {
  it('turns automatic drafts off, back on from 30 minutes, and chat copying on', async () => {
    const settings = async () => json('GET', '/api/v1/settings');
    await page.getByRole('navigation', { name: 'Main' }).getByRole('link', { name: 'Settings' }).click();
    const section = page.getByRole('region', { name: 'After the incident' });
    const drafts = section.getByLabel('Draft a post-mortem with AI when an incident is resolved');
    expect(await drafts.isChecked()).toBe(true);
    expect((await settings()).postmortem_auto_draft_min_minutes).toBe(0);

    await drafts.click();
    await section.getByText('Never automatically').waitFor();
    expect((await settings()).postmortem_auto_draft_min_minutes).toBeNull();

    await drafts.click();
    const minutes = section.getByLabel(/^Only for incidents that lasted at least/);
    await minutes.fill('30');
    await section.getByRole('button', { name: 'Save' }).click();
    await expect.poll(async () => (await settings()).postmortem_auto_draft_min_minutes).toBe(30);

    await section.getByLabel('Copy chat messages into the timeline').click();
    await expect.poll(async () => (await settings()).chat_timeline_sync).toBe(true);
    await expectNoAxeViolations(page, 'the settings page with the after-the-incident section');
  });
});

describe('due dates are UTC days', () => {
  it('marks overdue what the API calls overdue, for a reader whose day is not the UTC day', async () => {
    const now = new Date();
    const today = now.toISOString().slice(0, 10);
    // Whatever the hour, one of these zones (UTC-11, UTC+14) is on another calendar day than UTC.
    const timezoneId = now.getUTCHours() < 11 ? 'Pacific/Pago_Pago' : 'Pacific/Kiritimati';
    const other = await json('POST', '/api/v1/incidents', { title: 'Disk alarms', severity: 'low' });
    for (const [title, due] of [
      ['Due yesterday in UTC', yesterday()],
      ['Due today in UTC', today],
    ]) {
      await json('POST', `/api/v1/incidents/${other.id}/postmortem/action-items`, { title, due_date: due });
    }
    const context = await browser.newContext({ ...laptop, timezoneId });
    const there = await context.newPage();
    there.setDefaultTimeout(10_000);
    await logIn(there, server.url, server.admin.email, server.admin.password);
    expect(await there.evaluate(() => new Date().getDate())).not.toBe(new Date().getUTCDate());

    await there.goto(`${server.url}/incidents/${other.number}/postmortem`);
    const list = there.getByRole('list', { name: 'Action items of this incident' });
    const late = list.getByRole('listitem').filter({ hasText: 'Due yesterday in UTC' });
    const onTime = list.getByRole('listitem').filter({ hasText: 'Due today in UTC' });
    await late.getByText('Overdue').waitFor();
    expect(await onTime.getByText('Overdue').count()).toBe(0);

    await there.goto(`${server.url}/action-items`);
    const rows = there.getByRole('table', { name: 'Action items' }).locator('tbody tr');
    await rows.filter({ hasText: 'Due today in UTC' }).waitFor();
    expect(await rows.filter({ hasText: 'Due yesterday in UTC' }).textContent()).toContain('Overdue');
    expect(await rows.filter({ hasText: 'Due today in UTC' }).textContent()).not.toContain('Overdue');
    await there.getByText('Due dates are UTC days').waitFor();
    await context.close();
  });
});

describe('a post-mortem someone else started meanwhile', () => {
  it('is not set back to a draft by Start, and is shown instead', async () => {
    const other = await json('POST', '/api/v1/incidents', { title: 'DNS flaps', severity: 'high' });
    await page.goto(`${server.url}/incidents/${other.number}/postmortem`);
    const start = page.getByRole('button', { name: 'Start from this template' });
    await start.waitFor();
    await json('PUT', `/api/v1/incidents/${other.id}/postmortem`, {
      status: 'in_review',
      content: '## Summary\n\nTheir start.',
    });

    await start.click();
    await expect.poll(() => markdownField().inputValue()).toBe('## Summary\n\nTheir start.');
    expect(await editor().getByLabel('Status').inputValue()).toBe('in_review');
    const doc = await json('GET', `/api/v1/incidents/${other.id}/postmortem`);
    expect(doc).toMatchObject({ status: 'in_review', content: '## Summary\n\nTheir start.' });
  });
});

describe('an AI draft asked for before anyone started', () => {
  it('fills the template picked beside the button, not the default one', async () => {
    const short = await json('POST', '/api/v1/postmortem-templates', {
      name: 'Short review',
      content: '## What happened\n\n## Next steps\n',
    });
    const other = await json('POST', '/api/v1/incidents', { title: 'Queue backlog', severity: 'high' });
    await page.goto(`${server.url}/incidents/${other.number}/postmortem`);
    await page.getByRole('combobox', { name: /^Template/ }).selectOption({ label: 'Short review' });
    await page.getByRole('button', { name: 'Draft it with AI instead' }).click();

    await expect
      .poll(async () => (await json('GET', `/api/v1/incidents/${other.id}/postmortem`)).ai_draft?.status, {
        timeout: 15_000,
      })
      .toBe('done');
    const doc = await json('GET', `/api/v1/incidents/${other.id}/postmortem`);
    expect(doc.template_id).toBe(short.id);
    const asked = fake.requests.filter((request) => request.prompt.includes('Queue backlog'));
    expect(asked.at(-1)?.prompt).toContain('## What happened');
    expect(asked.at(-1)?.prompt).not.toContain('## Lessons learned');
  });
});
