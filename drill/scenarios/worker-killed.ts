// Durable work (docs/decisions.md#background-work-and-escalation): a job survives the process that ran
// it. The drill: the process is killed (SIGKILL) in the middle of a chat job, while its call to the chat
// service is in flight; a fresh process on the same stores must finish the job, and the work must be done
// once: one channel for the incident, one card in it.
import { startChat } from '../lib/chat';
import { sleep, verdict } from '../lib/harness';
import { queueKey, withRedis } from '../lib/redis';
import { api, startFirebreak, startPostgres, startRedis } from '../lib/service';
import type { Drill } from '../lib/types';

// Long enough a chat call that the kill lands while one is in flight.
const CHAT_LATENCY_MS = 3000;

export const workerKilled: Drill = {
  name: 'worker-killed',
  promise: 'Process killed mid-job: the job runs again elsewhere, and its work is done once',
  timeoutMs: 180_000,
  async run(defer) {
    const { chat, env } = await startChat(defer, CHAT_LATENCY_MS);
    const [{ databaseUrl }, redis] = await Promise.all([
      startPostgres(defer),
      startRedis(defer, { appendOnly: true }),
    ]);
    const first = await startFirebreak(defer, { databaseUrl, redisUrl: redis.url }, env);
    const incident = await api(first, 'POST', '/api/v1/incidents', {
      title: 'Drill killed worker',
      severity: 'high',
    });
    const activeJobs = () => withRedis(redis.url, (r) => r.llen(queueKey('chat', 'active')));
    const activeBy = Date.now() + 20_000;
    while (Date.now() < activeBy && (await activeJobs()) === 0) await sleep(100);
    const activeAtKill = await activeJobs();
    await sleep(CHAT_LATENCY_MS / 3); // inside the chat call
    await first.crash();
    const killedAt = Date.now();

    const second = await startFirebreak(defer, { databaseUrl, redisUrl: redis.url }, env);
    const deadline = Date.now() + 120_000;
    let channel: unknown = null;
    while (Date.now() < deadline && !channel) {
      channel = (await api(second, 'GET', `/api/v1/incidents/${incident.id}`)).chat_channel;
      if (!channel) await sleep(500);
    }
    const readyAfterKillMs = Date.now() - killedAt;
    const prefix = `inc-${incident.number}-`;
    const channelsOfIncident = () =>
      chat.channels().filter((c) => c.name.startsWith(prefix) || c.name.startsWith(`resolved-${prefix}`));
    const cardsPosted = () =>
      channelsOfIncident().reduce(
        (sum, c) =>
          sum + chat.messages(c.id).filter((m) => !m.threadTs && (m.blocks?.length ?? 0) > 0).length,
        0,
      );
    // Topic, purpose and card take a few more (slow) calls; then a duplicate gets time to show.
    const cardBy = Date.now() + 30_000;
    while (channel && Date.now() < cardBy && cardsPosted() === 0) await sleep(500);
    await sleep(2 * CHAT_LATENCY_MS);
    const channels = channelsOfIncident();
    const cards = cardsPosted();
    return verdict(
      {
        'jobs active at kill': activeAtKill,
        'channel ready s after kill': channel ? Math.round(readyAfterKillMs / 1000) : 'never',
        'channels created': channels.map((c) => c.name).join(' ') || 'none',
        'cards posted': cards,
      },
      {
        'the kill landed during a job': activeAtKill > 0,
        'the job finished after the kill': channel !== null,
        'exactly one channel': channels.length === 1,
        'exactly one card': cards === 1,
      },
    );
  },
};
