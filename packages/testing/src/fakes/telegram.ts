import { Hono } from 'hono';
import { listen, type RunningServer } from './http-server';

/**
 * A fake Telegram Bot API (docs/telegram.md) on a real port: point `TELEGRAM_API_URL` at `origin`. It
 * serves `POST /bot<token>/sendMessage` (JSON or form body) and `/bot<token>/getMe`, answers
 * `{ok: true, result}`, and refuses what the Bot API refuses, with its `{ok: false, error_code,
 * description, parameters?}` body: an unknown token (401 Unauthorized), an unknown chat (400 chat not
 * found), empty text, text over 4096 characters, HTML that does not parse in `parse_mode: HTML`, a
 * person who blocked the bot (403), a group upgraded to a supergroup (400 with
 * `parameters.migrate_to_chat_id`), a chat where the bot may not post (400 not enough rights), and more
 * than `burst` messages a second to one chat, 20 a minute to a group, or 30 a second from the bot to
 * all chats together (429 with `parameters.retry_after`).
 */

export interface FakeTelegramOptions {
  /** The bot's token; any other is refused with 401. */
  token: string;
  username?: string;
  /** Chats the bot can write to; any other id is `chat not found`. Negative ids are groups. */
  chats?: string[];
  /** Messages one chat may receive within one second before 429 (default 1). */
  burst?: number;
  /** `retry_after` of a 429, in seconds (default: until the second is over, at least 1). */
  retryAfterSeconds?: number;
}

export interface FakeTelegramMessage {
  message_id: number;
  chat_id: string;
  text: string;
  parse_mode: string | undefined;
  time: Date;
}

export interface FakeTelegramRequest {
  method: string;
  /** Whether the token in the path was the bot's (the token itself is not recorded). */
  token_ok: boolean;
  status: number;
  description: string | undefined;
  params: Record<string, unknown>;
  time: Date;
}

const MAX_TEXT_CHARS = 4096;
const GROUP_PER_MINUTE = 20;
// The bot as a whole: about 30 messages a second, across all its chats.
const BOT_PER_SECOND = 30;
// The tags Telegram's HTML parse mode knows (docs/telegram.md#what-is-sent).
const TAGS = new Set([
  'b',
  'strong',
  'i',
  'em',
  'u',
  'ins',
  's',
  'strike',
  'del',
  'span',
  'tg-spoiler',
  'a',
  'code',
  'pre',
  'blockquote',
  'tg-emoji',
]);
const ENTITIES: Record<string, string> = { lt: '<', gt: '>', amp: '&', quot: '"' };

type Refusal = { status: number; description: string; retryAfter?: number; migrateTo?: string };

export class FakeTelegram {
  readonly messages: FakeTelegramMessage[] = [];
  readonly requests: FakeTelegramRequest[] = [];
  /** Chats whose person blocked the bot: 403. */
  readonly blocked = new Set<string>();
  /** Groups upgraded to a supergroup, old id → new id: the old id is refused with the new one. */
  readonly migrated = new Map<string, string>();
  /** Chats where the bot is a member without the right to post (a channel it does not administer). */
  readonly readOnly = new Set<string>();
  readonly chats: Set<string>;
  /** While true, every connection is dropped without an answer (Telegram unreachable). */
  unreachable = false;
  private readonly sentAt = new Map<string, number[]>();
  private botSentAt: number[] = [];
  private nextId = 1;
  private server!: RunningServer;

  constructor(private readonly options: FakeTelegramOptions) {
    this.chats = new Set(options.chats ?? []);
  }

  get origin(): string {
    return this.server.origin;
  }

  /** The messages one chat received, oldest first. */
  messagesTo(chatId: string): FakeTelegramMessage[] {
    return this.messages.filter((m) => m.chat_id === chatId);
  }

  async start(): Promise<this> {
    const app = new Hono();
    app.post('/:bot/:method', async (c) => {
      const bot = c.req.param('bot');
      const method = c.req.param('method');
      const params = await readParams(c.req.raw);
      const tokenOk = bot === `bot${this.options.token}`;
      const answer = tokenOk ? this.handle(method, params) : { status: 401, description: 'Unauthorized' };
      this.requests.push({
        method,
        token_ok: tokenOk,
        status: answer.status,
        description: 'result' in answer ? undefined : answer.description,
        params,
        time: new Date(),
      });
      if ('result' in answer) return c.json({ ok: true, result: answer.result });
      return c.json(
        {
          ok: false,
          error_code: answer.status,
          description: answer.description,
          ...(answer.retryAfter !== undefined ? { parameters: { retry_after: answer.retryAfter } } : {}),
          ...(answer.migrateTo !== undefined
            ? { parameters: { migrate_to_chat_id: Number(answer.migrateTo) } }
            : {}),
        },
        answer.status as 400,
      );
    });
    this.server = await listen(app.fetch, (_req, res) => {
      if (!this.unreachable) return false;
      res.socket?.destroy();
      return true;
    });
    return this;
  }

  close(): Promise<void> {
    return this.server.close();
  }

  private handle(
    method: string,
    params: Record<string, unknown>,
  ): Refusal | { status: 200; result: unknown } {
    if (method === 'getMe') {
      return {
        status: 200,
        result: { id: Number(this.options.token.split(':')[0]), is_bot: true, username: this.username() },
      };
    }
    if (method !== 'sendMessage') return { status: 404, description: 'Not Found' };
    return this.sendMessage(params);
  }

  private username(): string {
    return this.options.username ?? 'firebreak_test_bot';
  }

  private sendMessage(params: Record<string, unknown>): Refusal | { status: 200; result: unknown } {
    const chatId = params.chat_id === undefined ? '' : String(params.chat_id);
    if (!chatId) return { status: 400, description: 'Bad Request: chat_id is empty' };
    const raw = typeof params.text === 'string' ? params.text : '';
    const parseMode = typeof params.parse_mode === 'string' ? params.parse_mode : undefined;
    let text = raw;
    if (parseMode?.toUpperCase() === 'HTML') {
      const parsed = parseHtml(raw);
      if ('error' in parsed)
        return { status: 400, description: `Bad Request: can't parse entities: ${parsed.error}` };
      text = parsed.text;
    }
    if (text.trim() === '') return { status: 400, description: 'Bad Request: message text is empty' };
    if (text.length > MAX_TEXT_CHARS) return { status: 400, description: 'Bad Request: message is too long' };
    const migrateTo = this.migrated.get(chatId);
    if (migrateTo !== undefined) {
      return {
        status: 400,
        description: 'Bad Request: group chat was upgraded to a supergroup chat',
        migrateTo,
      };
    }
    if (!this.chats.has(chatId)) return { status: 400, description: 'Bad Request: chat not found' };
    if (this.readOnly.has(chatId))
      return { status: 400, description: 'Bad Request: not enough rights to send text messages to the chat' };
    if (this.blocked.has(chatId))
      return { status: 403, description: 'Forbidden: bot was blocked by the user' };
    const limited = this.rateLimited(chatId);
    if (limited !== undefined) {
      return { status: 429, description: `Too Many Requests: retry after ${limited}`, retryAfter: limited };
    }
    const message = {
      message_id: this.nextId++,
      chat_id: chatId,
      text,
      parse_mode: parseMode,
      time: new Date(),
    };
    this.messages.push(message);
    return {
      status: 200,
      result: {
        message_id: message.message_id,
        date: Math.floor(message.time.getTime() / 1000),
        chat: { id: Number(chatId), type: chatId.startsWith('-') ? 'group' : 'private' },
        from: { id: Number(this.options.token.split(':')[0]), is_bot: true, username: this.username() },
        text,
      },
    };
  }

  /** Seconds to wait, when this message would pass the chat's limits; else records it. */
  private rateLimited(chatId: string): number | undefined {
    const now = Date.now();
    this.botSentAt = this.botSentAt.filter((t) => now - t < 1000);
    if (this.botSentAt.length >= BOT_PER_SECOND) {
      return (
        this.options.retryAfterSeconds ?? Math.max(1, Math.ceil((this.botSentAt[0]! + 1000 - now) / 1000))
      );
    }
    const times = (this.sentAt.get(chatId) ?? []).filter((t) => now - t < 60_000);
    const lastSecond = times.filter((t) => now - t < 1000);
    const group = chatId.startsWith('-');
    if (lastSecond.length >= (this.options.burst ?? 1)) {
      return this.options.retryAfterSeconds ?? Math.max(1, Math.ceil((lastSecond[0]! + 1000 - now) / 1000));
    }
    if (group && times.length >= GROUP_PER_MINUTE) {
      return this.options.retryAfterSeconds ?? Math.max(1, Math.ceil((times[0]! + 60_000 - now) / 1000));
    }
    times.push(now);
    this.sentAt.set(chatId, times);
    this.botSentAt.push(now);
    return undefined;
  }
}

export async function startFakeTelegram(options: FakeTelegramOptions): Promise<FakeTelegram> {
  return new FakeTelegram(options).start();
}

/** The Bot API takes JSON, a URL-encoded form or a query string. */
async function readParams(request: Request): Promise<Record<string, unknown>> {
  const type = request.headers.get('content-type') ?? '';
  const params: Record<string, unknown> = Object.fromEntries(new URL(request.url).searchParams);
  const body = await request.text();
  if (type.includes('application/json') && body) {
    try {
      const parsed: unknown = JSON.parse(body);
      if (parsed && typeof parsed === 'object') Object.assign(params, parsed);
    } catch {
      // Telegram ignores a body it cannot read; the missing fields are refused below.
    }
  } else if (type.includes('application/x-www-form-urlencoded')) {
    Object.assign(params, Object.fromEntries(new URLSearchParams(body)));
  }
  return params;
}

/**
 * Telegram's HTML: the known tags, properly nested and closed, and `<`, `>`, `&` only as entities. The
 * errors read as Telegram's do. Returns the plain text (what the length limit counts).
 */
export function parseHtml(html: string): { text: string } | { error: string } {
  const open: string[] = [];
  let text = '';
  for (let i = 0; i < html.length; ) {
    const c = html[i]!;
    if (c === '<') {
      const match = /^<(\/?)([a-zA-Z-]*)((?:\s+[a-zA-Z-]+(?:="[^"]*"|='[^']*')?)*)\s*>/.exec(html.slice(i));
      const name = match?.[2]?.toLowerCase() ?? '';
      if (!match || !TAGS.has(name)) {
        return {
          error: `Unsupported start tag "${name}" at byte offset ${Buffer.byteLength(html.slice(0, i))}`,
        };
      }
      if (match[1]) {
        if (open.pop() !== name)
          return {
            error: `Unmatched end tag at byte offset ${Buffer.byteLength(html.slice(0, i))}, expected "</${open.at(-1) ?? ''}>", found "</${name}>"`,
          };
      } else open.push(name);
      i += match[0].length;
    } else if (c === '&') {
      const entity = /^&(#\d{1,7}|#x[0-9a-fA-F]{1,6}|[a-zA-Z]+);/.exec(html.slice(i));
      const name = entity?.[1];
      if (!name || (!name.startsWith('#') && !(name in ENTITIES))) {
        return {
          error: `Character '&' is reserved and must be escaped at byte offset ${Buffer.byteLength(html.slice(0, i))}`,
        };
      }
      text += name.startsWith('#x')
        ? String.fromCodePoint(parseInt(name.slice(2), 16))
        : name.startsWith('#')
          ? String.fromCodePoint(Number(name.slice(1)))
          : ENTITIES[name];
      i += entity![0].length;
    } else if (c === '>') {
      return {
        error: `Character '>' is reserved and must be escaped at byte offset ${Buffer.byteLength(html.slice(0, i))}`,
      };
    } else {
      text += c;
      i += 1;
    }
  }
  if (open.length > 0) return { error: `Can't find end tag corresponding to start tag "${open.at(-1)}"` };
  return { text };
}
