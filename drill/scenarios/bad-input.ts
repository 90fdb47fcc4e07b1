// Bad requests are answered with the error envelope and status of docs/api.md#errors, and nothing of a
// rejected request is stored. The drill: malformed JSON, wrong content types, huge bodies, deep nesting,
// 10 000 labels, bad signatures, replayed chat requests; unicode titles stored intact.
import { type BadInputCase, chatCases, signedCases, unsignedCases } from '../lib/bad-input-cases';
import { startChat } from '../lib/chat';
import { verdict } from '../lib/harness';
import { api, startFirebreak, startPostgres, startRedis, withSql } from '../lib/service';
import type { Drill } from '../lib/types';

interface Envelope {
  error?: { code?: string; message?: string; request_id?: string };
}

async function answerOf(url: string, c: BadInputCase): Promise<string> {
  let res: Response;
  try {
    res = await fetch(`${url}${c.path}`, { method: 'POST', headers: c.headers, body: c.body });
  } catch (error) {
    const cause = (error as { cause?: { code?: string; message?: string } }).cause;
    return `no answer (${cause?.code ?? cause?.message ?? String(error)})`;
  }
  const body = (await res.json().catch(() => ({}))) as Envelope;
  const complete = body.error?.message && body.error.request_id;
  return `${res.status} ${body.error?.code ?? 'no code'}${complete ? '' : ' (incomplete envelope)'}`;
}

const UNICODE_TITLES = [
  'Datenbank überlastet — Größe 💥',
  '数据库连接失败',
  'שגיאה בשרת ‏RTL‏',
  'e\u0301 combining, zero\u200bwidth, 🧑🏽‍🚒 family',
];

export const badInput: Drill = {
  name: 'bad-input',
  promise: 'Bad input: an error envelope each, nothing stored; unicode titles stored intact',
  timeoutMs: 120_000,
  async run(defer) {
    const { env } = await startChat(defer);
    const [{ databaseUrl }, redis] = await Promise.all([startPostgres(defer), startRedis(defer)]);
    const service = await startFirebreak(defer, { databaseUrl, redisUrl: redis.url }, env);
    const stored = () =>
      withSql(databaseUrl, async (sql) => {
        const [row] = await sql<{ alerts: number; incidents: number }[]>`
          select (select count(*)::int from alerts) as alerts, (select count(*)::int from incidents) as incidents`;
        return `${row!.alerts} alerts, ${row!.incidents} incidents`;
      });

    const before = await stored();
    const wrong: string[] = [];
    const check = async (cases: BadInputCase[]) => {
      for (const c of cases) {
        const answer = await answerOf(service.url, c);
        if (answer !== `${c.status} ${c.code}`)
          wrong.push(`${c.name}: ${answer}, expected ${c.status} ${c.code}`);
      }
    };
    const unsigned = unsignedCases();
    await check(unsigned);
    await check(chatCases(env.CHAT_SIGNING_SECRET!));
    const secret = 'drill-generic-signing-secret';
    await api(service, 'PUT', '/api/v1/settings/integrations/generic-webhook', { signing_secret: secret });
    const signed = signedCases(secret);
    await check(signed);
    await api(service, 'PUT', '/api/v1/settings/integrations/generic-webhook', { signing_secret: null });
    const after = await stored();

    // Valid unicode: stored and read back exactly as sent.
    const res = await fetch(`${service.url}/api/v1/webhooks/generic`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ alerts: UNICODE_TITLES.map((title) => ({ title, severity: 'info' })) }),
    });
    const { alerts } = (await res.json()) as { alerts?: Array<{ id: string }> };
    const titles = await Promise.all(
      (alerts ?? []).map(async ({ id }) => String((await api(service, 'GET', `/api/v1/alerts/${id}`)).title)),
    ).catch(async () =>
      withSql(databaseUrl, (sql) =>
        sql<
          { title: string }[]
        >`select title from alerts where id = any(${(alerts ?? []).map((a) => a.id)})`.then((rows) =>
          rows.map((row) => row.title),
        ),
      ),
    );
    const intact = UNICODE_TITLES.every((title) => titles.includes(title));

    return verdict(
      {
        'bad requests': unsigned.length + signed.length + 2,
        'answered otherwise': wrong.length,
        'stored before / after': `${before} / ${after}`,
        'unicode titles intact': `${titles.filter((t) => UNICODE_TITLES.includes(t)).length} of ${UNICODE_TITLES.length}`,
        ...(wrong.length > 0 ? { 'wrong answers': wrong.join('; ') } : {}),
      },
      {
        'every bad request got its error envelope': wrong.length === 0,
        'nothing of a bad request was stored': before === after,
        'unicode titles stored intact': res.status === 200 && intact,
      },
    );
  },
};
