// Personal pages are rows in PostgreSQL; a `notify` job is only a wake-up call (docs/paging.md#timers).
// The drill: a page with a two-rule ladder (e-mail at once, e-mail again a minute later) to every
// person of a tier, and Redis restarted empty while the first rule's wake-up jobs wait behind a slow
// mail server. Every rule of every page still arrives, once each, read from a real SMTP server.
import { getFreePort, startTestSmtpServer, type TestMail } from '@firebreak/testing';
import { sleep, verdict } from '../lib/harness';
import { queueKey, withRedis } from '../lib/redis';
import { api, startFirebreak, startPostgres, startRedis, withSql } from '../lib/service';
import type { Drill } from '../lib/types';

// The second rule is due 60 s after the step; lost wake-ups are queued again 10 s after the first.
const SECOND_RULE_MINUTES = 1;

export const pagingRedisEmpty: Drill<{ people: number; incidents: number; smtpDelayMs: number }> = {
  name: 'paging-redis-empty',
  promise: 'Redis restarted empty mid-page: every rule of every personal page is e-mailed once',
  timeoutMs: 240_000,
  async run(defer, { people = 6, incidents = 4, smtpDelayMs = 150 }) {
    const smtp = await startTestSmtpServer({ acceptDelayMs: smtpDelayMs });
    defer(() => smtp.close());
    const [{ databaseUrl }, redis] = await Promise.all([startPostgres(defer), startRedis(defer)]);
    // Paging by e-mail needs PUBLIC_URL (every page's links start with it): the service's own address.
    const port = await getFreePort();
    const service = await startFirebreak(
      defer,
      { databaseUrl, redisUrl: redis.url },
      { SMTP_URL: smtp.url, PUBLIC_URL: `http://127.0.0.1:${port}` },
      { port },
    );
    const addresses = await pagedPeople(service, databaseUrl, people);
    const policy = await api(service, 'POST', '/api/v1/escalation-policies', {
      name: 'Drill: personal pages',
      tiers: [{ target_type: 'users', user_ids: addresses.map((a) => a.userId), timeout_seconds: 3600 }],
    });
    await api(service, 'PATCH', '/api/v1/settings', { default_escalation_policy_id: policy.id });

    const opened = await Promise.all(
      Array.from({ length: incidents }, (_, i) =>
        api(service, 'POST', '/api/v1/incidents', { title: `Drill page ${i}`, severity: 'high' }),
      ),
    );
    const expected = 2 * people * incidents;
    const rowsBy = Date.now() + 30_000;
    while (Date.now() < rowsBy && (await pageRows(databaseUrl)).total < expected) await sleep(100);
    // Some first-rule e-mails are out; the rest wait in Redis behind the slow mail server.
    const outBy = Date.now() + 20_000;
    while (Date.now() < outBy && smtp.messages.length < 2) await sleep(50);
    const queued = () =>
      withRedis(
        redis.url,
        async (r) =>
          (await r.llen(queueKey('notify', 'wait'))) + (await r.zcard(queueKey('notify', 'delayed'))),
      );
    const before = await queued();
    await redis.kill();
    await redis.start();
    const after = await queued();

    const deadline = Date.now() + (SECOND_RULE_MINUTES * 60 + 60) * 1000;
    while (Date.now() < deadline && smtp.messages.length < expected) await sleep(500);
    await sleep(3000); // a late duplicate would show up by now
    const rows = await pageRows(databaseUrl);
    const perPage = countPerPage(smtp.messages);
    const once = [...perPage.values()].filter((n) => n === 1).length;
    const firstRule = new Set(addresses.map((a) => a.first));
    const firstAt = smtp.messages.filter((m) => m.to.some((t) => firstRule.has(t))).length;

    return verdict(
      {
        'pages (people × incidents × rules)': `${people} × ${opened.length} × 2`,
        'wake-up jobs queued before / after the restart': `${before} / ${after}`,
        'e-mails received': smtp.messages.length,
        'first-rule / second-rule e-mails': `${firstAt} / ${smtp.messages.length - firstAt}`,
        'rows sent': rows.sent,
      },
      {
        'wake-up jobs were lost': before > 0 && after === 0,
        'one row per rule': rows.total === expected,
        'every row sent': rows.sent === expected,
        'every rule e-mailed exactly once': perPage.size === expected && once === expected,
      },
    );
  },
};

/** People with two verified addresses each: rule 0 e-mails the first at once, rule 1 the second later. */
async function pagedPeople(service: { url: string; token: string }, databaseUrl: string, count: number) {
  const made: { userId: string; first: string; second: string }[] = [];
  for (let i = 0; i < count; i += 1) {
    const user = await api(service, 'POST', '/api/v1/users', {
      email: `drill-page-${i}@example.test`,
      name: `Paged ${i}`,
      role: 'member',
    });
    made.push({
      userId: String(user.id),
      first: `first-${i}@example.test`,
      second: `second-${i}@example.test`,
    });
  }
  // Inserted verified, as after send-code and verify: the drill is about the pages, not the codes.
  await withSql(databaseUrl, async (sql) => {
    for (const person of made) {
      const [first] = await sql`insert into contact_methods (user_id, type, address, verified_at)
        values (${person.userId}, 'email', ${person.first}, now()) returning id`;
      const [second] = await sql`insert into contact_methods (user_id, type, address, verified_at)
        values (${person.userId}, 'email', ${person.second}, now()) returning id`;
      await sql`insert into notification_rules (user_id, position, method, delay_minutes, contact_method_id)
        values (${person.userId}, 0, 'email', 0, ${first!.id}),
               (${person.userId}, 1, 'email', ${SECOND_RULE_MINUTES}, ${second!.id})`;
    }
  });
  return made;
}

function pageRows(databaseUrl: string): Promise<{ total: number; sent: number }> {
  return withSql(databaseUrl, async (sql) => {
    const [row] = await sql<{ total: number; sent: number }[]>`
      select count(*)::int as total, (count(*) filter (where status = 'sent'))::int as sent from page_deliveries`;
    return row!;
  });
}

/** E-mails per (address, incident): each rule of each page is one. */
function countPerPage(messages: TestMail[]): Map<string, number> {
  const counts = new Map<string, number>();
  for (const mail of messages) {
    const key = `${mail.to.join()} ${mail.subject}`;
    counts.set(key, (counts.get(key) ?? 0) + 1);
  }
  return counts;
}
