import { describe, expect, it } from 'vitest';
import { escapeTelegramHtml, redactToken } from './bot-api';
import { feedGapMs, judgeFeedSend } from './feed-policy';
import { cutSummary, feedMessageText } from './feed-text';

const now = new Date('2026-01-01T00:00:00Z');
const refused = (status: number, description: string, retryAfterS?: number, migrateToChatId?: string) =>
  ({
    kind: 'refused',
    status,
    description,
    ...(retryAfterS ? { retryAfterS } : {}),
    ...(migrateToChatId ? { migrateToChatId } : {}),
  }) as const;

describe('judgeFeedSend', () => {
  it('holds the feed back on a refusal of the bot or the chat, with backoff', () => {
    expect(judgeFeedSend(refused(401, 'Unauthorized'), 1, now)).toMatchObject({
      status: 'pending',
      failure: 'unauthorized',
      nextAttemptAt: new Date(now.getTime() + 1000),
    });
    expect(judgeFeedSend(refused(400, 'Bad Request: chat not found'), 3, now)).toMatchObject({
      status: 'pending',
      failure: 'chat_not_found',
      nextAttemptAt: new Date(now.getTime() + 4000),
    });
    expect(judgeFeedSend(refused(403, 'Forbidden: bot was kicked'), 30, now).nextAttemptAt).toEqual(
      new Date(now.getTime() + 5 * 60_000),
    );
  });

  it('waits for retry_after on a 429, which is not a failure', () => {
    expect(judgeFeedSend(refused(429, 'Too Many Requests: retry after 9', 9), 1, now)).toMatchObject({
      status: 'pending',
      failure: null,
      rateLimitedS: 9,
      nextAttemptAt: new Date(now.getTime() + 9000),
    });
  });

  it('fails only the message Telegram refused for its content, letting the rest go', () => {
    expect(judgeFeedSend(refused(400, 'Bad Request: message is too long'), 1, now)).toEqual({
      status: 'failed',
      error: 'telegram 400: Bad Request: message is too long',
      nextAttemptAt: null,
      failure: null,
    });
    for (const description of [
      'Bad Request: can\'t parse entities: Unsupported start tag "div" at byte offset 3',
      'Bad Request: message text is empty',
      'Bad Request: text must be encoded in UTF-8',
    ]) {
      expect(judgeFeedSend(refused(400, description), 1, now)).toMatchObject({
        status: 'failed',
        failure: null,
      });
    }
  });

  it('holds the whole feed on a 400 about the chat: migrated (with the new id), no rights, anything else', () => {
    const migrated = refused(
      400,
      'Bad Request: group chat was upgraded to a supergroup chat',
      undefined,
      '-100777',
    );
    expect(judgeFeedSend(migrated, 1, now)).toEqual({
      status: 'pending',
      failure: 'chat_migrated',
      error:
        "telegram 400: Bad Request: group chat was upgraded to a supergroup chat (the chat's new id is -100777)",
      nextAttemptAt: new Date(now.getTime() + 1000),
    });
    expect(
      judgeFeedSend(refused(400, 'Bad Request: not enough rights to send text messages to the chat'), 1, now),
    ).toMatchObject({ status: 'pending', failure: 'forbidden' });
    expect(judgeFeedSend(refused(400, 'Bad Request: CHAT_WRITE_FORBIDDEN'), 1, now)).toMatchObject({
      status: 'pending',
      failure: 'bad_request',
    });
  });
});

describe('helpers', () => {
  it('paces a group slower than a person', () => {
    expect(feedGapMs('123')).toBe(1000);
    expect(feedGapMs('-100123')).toBe(3000);
  });

  it('removes the token, and any /bot<token> path, from text', () => {
    expect(redactToken('POST /bot12:AAsecret-x/sendMessage failed: 12:AAsecret-x', '12:AAsecret-x')).toBe(
      'POST /bot[redacted]/sendMessage failed: [redacted]',
    );
    expect(redactToken('at /bot99:Other_token', 'x')).toBe('at /bot[redacted]');
  });

  it('escapes what HTML parse mode would read', () => {
    expect(escapeTelegramHtml('<b> & "x"')).toBe('&lt;b&gt; &amp; &quot;x&quot;');
  });
});

describe('feed text', () => {
  const head = {
    entry_id: 'e',
    incident_id: 'i',
    event: 'opened' as const,
    status: 'pending' as const,
    attempts: 0,
    next_attempt_at: now,
    entry_created_at: now,
    entry_data: { title: 'DB <down>', severity: 'critical' },
    actor_name: null,
    incident_number: 7,
    incident_title: 'Renamed later',
    incident_severity: 'low',
  };

  it('tells the title and severity as they were at the event', () => {
    const text = feedMessageText(head, 'https://f.test', now);
    expect(text).toContain('(critical)');
    expect(text).toContain('DB &lt;down&gt;');
    expect(text).not.toContain('Renamed later');
    // An entry without them (a status change) falls back to the incident's.
    const ack = feedMessageText(
      { ...head, event: 'acknowledged', entry_data: { to: 'acknowledged' } },
      'https://f.test',
      now,
    );
    expect(ack).toContain('Renamed later');
  });

  it('adds the event time to a message sent more than a minute after it', () => {
    expect(feedMessageText(head, 'https://f.test', new Date(now.getTime() + 59_000))).not.toContain(' UTC');
    expect(feedMessageText(head, 'https://f.test', new Date(now.getTime() + 61_000))).toContain(
      '<i>at 2026-01-01 00:00 UTC</i>',
    );
  });

  it('cuts a long summary on a code-point boundary', () => {
    // 3 498 ASCII characters then emoji (two UTF-16 units each): the cut falls inside the next pair.
    const text = `${'a'.repeat(3498)}${'😀'.repeat(10)}`;
    const cut = cutSummary(text);
    expect(cut).toBe(`${'a'.repeat(3498)}…`);
    expect(Buffer.from(cut, 'utf8').toString('utf8')).toBe(cut);
    expect(cutSummary('short')).toBe('short');
    expect(cutSummary(`${'a'.repeat(3497)}${'😀'.repeat(10)}`)).toBe(`${'a'.repeat(3497)}😀…`);
  });
});
