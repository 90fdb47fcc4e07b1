// The analytics page in a real browser against the real server routes, on this file's own database:
// the tiles and charts for seeded incidents, pages and alerts; a preset range that refetches; grouping
// by a label; the CSV download; axe-core's WCAG 2.1 A/AA rules on the filled page.
import { readFileSync } from 'node:fs';
import { bodyOf } from '@firebreak/testing';
import type { Browser, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { expectNoAxeViolations } from './support/axe';
import { laptop, launchBrowser, logIn, screenshot } from './support/browser';
import { startWebTestServer, type WebTestServer } from './support/web-server';

const DAY_MS = 86_400_000;

let server: WebTestServer;
let browser: Browser;
let page: Page;

beforeAll(async () => {
  server = await startWebTestServer();
  await seed();
  browser = await launchBrowser();
  page = await (await browser.newContext({ ...laptop, acceptDownloads: true })).newPage();
  page.setDefaultTimeout(10_000);
  await logIn(page, server.url, server.admin.email, server.admin.password);
});
afterAll(async () => {
  await browser?.close();
  await server?.close();
});

/**
 * Four incidents in the last 30 days, three of them in the last 7: acknowledged and resolved at known
 * times, paged to Ada by name, with alerts labelled by team.
 */
async function seed() {
  const sql = server.runtime.sql;
  const res = await server.api('POST', '/api/v1/escalation-policies', {
    name: 'Analytics page policy',
    tiers: [{ target_type: 'users', user_ids: [server.admin.id] }],
  });
  expect(res.status).toBe(201);
  const policy = (await bodyOf(res)).id as string;
  const now = Date.now();
  // [days ago, seconds to acknowledge, seconds to resolve, severity, source, alert title, team]
  const incidents: Array<[number, number | null, number | null, string, string, string | null, string]> = [
    [2, 120, 1800, 'critical', 'alert', 'Disk full on db-1', 'db'],
    [3, 300, 3600, 'high', 'manual', null, ''],
    [5, null, null, 'low', 'chat', null, ''],
    [20, 60, 600, 'medium', 'alert', 'CPU high on web-2', 'web'],
  ];
  for (const [daysAgo, tta, ttr, severity, source, alert, team] of incidents) {
    const start = new Date(now - daysAgo * DAY_MS);
    const at = (seconds: number | null) =>
      seconds === null ? null : new Date(start.getTime() + seconds * 1000);
    const status = ttr !== null ? 'resolved' : tta !== null ? 'acknowledged' : 'triggered';
    const [row] = await sql<{ id: string }[]>`
      insert into incidents (title, severity, status, source, escalation_policy_id, created_at,
                             acknowledged_at, resolved_at)
      values (${`Seeded ${daysAgo} days ago`}, ${severity}, ${status}, ${source}, ${policy}, ${start},
              ${at(tta)}, ${at(ttr)})
      returning id`;
    const id = row!.id;
    await sql`insert into incident_escalations (incident_id, policy_id) values (${id}, ${policy})`;
    await sql`
      insert into escalation_steps (incident_id, round, tier, due_at, fired_at, targets)
      values (${id}, 0, 0, ${start}, ${start},
              ${sql.json([{ id: server.admin.id, name: 'Ada Admin', slack_user_id: null }])})`;
    if (alert) {
      // The alert opened the incident: its labels are the incident's (docs/analytics.md).
      await sql`
        with opener as (
          insert into alerts (integration, dedup_key, title, started_at, incident_id, labels)
          values ('generic', ${`key-${daysAgo}`}, ${alert}, ${new Date(start.getTime() - 60_000)}, ${id},
                  ${sql.json({ team })})
          returning id)
        update incidents set opened_by_alert_id = (select id from opener) where id = ${id}`;
    }
  }
}

const tile = (name: string) =>
  page
    .locator('.analytics-tile')
    .filter({ has: page.getByRole('term').filter({ hasText: new RegExp(`^${name}$`) }) });

describe('the analytics page', () => {
  it('shows the last 30 days: tiles, charts with their tables, the noisiest alerts', async () => {
    await page.goto(`${server.url}/analytics`);
    await page.getByRole('heading', { level: 1, name: 'Analytics' }).waitFor();
    await expect.poll(() => tile('Incidents').locator('.analytics-value').textContent()).toBe('4');
    // Acknowledged in 60, 120 and 300 s: the median is 120 s.
    expect(await tile('MTTA p50').locator('.analytics-value').textContent()).toBe('2m 00s');
    expect(await tile('Pages').locator('.analytics-value').textContent()).toBe('4');
    for (const title of ['Incidents per day', 'MTTA and MTTR per day', 'Pages per person', 'By severity']) {
      await page.getByRole('heading', { level: 2, name: title }).waitFor();
    }
    expect(await page.locator('.recharts-surface').count()).toBeGreaterThanOrEqual(5);
    // A screen reader has each chart's numbers as a table without opening anything, and not the drawing.
    const severity = page.getByRole('figure', { name: 'By severity' });
    const numbers = severity.getByRole('table', { name: 'By severity' });
    // Rendered (though clipped to nothing), not waiting in a closed <details>.
    expect(await numbers.isVisible()).toBe(true);
    expect(await numbers.getByRole('row', { name: /critical/ }).textContent()).toBe('critical1');
    expect(await severity.locator('.analytics-drawing').getAttribute('aria-hidden')).toBe('true');
    // Sighted readers open the same numbers; a screen reader still finds the table once.
    await severity.getByText('Show the numbers').click();
    await severity.locator('details table').waitFor({ state: 'visible' });
    expect(await severity.getByRole('table').count()).toBe(1);
    const noisiest = page.getByRole('table', { name: 'Noisiest alerts' });
    await noisiest.getByRole('cell', { name: 'Disk full on db-1' }).waitFor();
    await noisiest.getByRole('cell', { name: 'CPU high on web-2' }).waitFor();
    await page
      .getByRole('button', { name: 'Last 30 days' })
      .and(page.locator('[aria-pressed="true"]'))
      .waitFor();
  });

  it('refetches when the range changes: the last 7 days leave out the incident of 20 days ago', async () => {
    const refetched = page.waitForResponse(
      (response) => response.url().includes('/api/v1/analytics?') && response.status() === 200,
    );
    await page.getByRole('button', { name: 'Last 7 days' }).click();
    const response = await refetched;
    const from = new URL(response.url()).searchParams.get('from');
    expect(from).toBe(new Date(Date.now() - 6 * DAY_MS).toISOString().slice(0, 10));
    await expect.poll(() => tile('Incidents').locator('.analytics-value').textContent()).toBe('3');
    expect(page.url()).toContain(`from=${from}`);
    await page.getByRole('cell', { name: 'CPU high on web-2' }).waitFor({ state: 'detached' });
  });

  it('counts incidents by a label once one is named', async () => {
    await page.getByLabel('Group incidents by label').fill('team');
    await page.getByRole('button', { name: 'Apply' }).click();
    const byLabel = page.getByRole('figure', { name: 'By label team' });
    await byLabel.getByText('Show the numbers').click();
    const table = byLabel.getByRole('table');
    await table.getByRole('row', { name: /^db/ }).waitFor();
    expect(await table.getByRole('row', { name: /\(none\)/ }).textContent()).toBe('(none)2');
    await screenshot(page, 'analytics');
    await expectNoAxeViolations(page, 'the analytics page with a label chosen');
  });

  it('downloads the daily series as CSV', async () => {
    const [download] = await Promise.all([
      page.waitForEvent('download'),
      page.getByRole('link', { name: 'Download CSV' }).click(),
    ]);
    expect(download.suggestedFilename()).toMatch(
      /^firebreak-analytics-\d{4}-\d{2}-\d{2}-\d{4}-\d{2}-\d{2}\.csv$/,
    );
    const lines = readFileSync((await download.path())!, 'utf8')
      .trim()
      .split('\n');
    expect(lines[0]).toBe(
      'date,incidents,acknowledged,resolved,mtta_p50_seconds,mttr_p50_seconds,pages,out_of_hours_pages,alerts',
    );
    // A header and the 7 days of the range; the day of the incident of two days ago counts it.
    expect(lines).toHaveLength(8);
    const twoDaysAgo = new Date(Date.now() - 2 * DAY_MS).toISOString().slice(0, 10);
    const row = lines.find((line) => line.startsWith(twoDaysAgo))?.split(',') ?? [];
    // Whether its page was out of hours depends on the hour this test runs at: that column is left out.
    expect([...row.slice(0, 7), row[8]]).toEqual([twoDaysAgo, '1', '1', '1', '120', '1800', '1', '1']);
  });
});
