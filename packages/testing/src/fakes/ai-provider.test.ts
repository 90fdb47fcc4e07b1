import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { type FakeAiProvider, startFakeAiProvider } from './ai-provider';

const KEY = 'test-ai-key';

// Just the parts of the answers these tests read.
interface ErrorAnswer {
  error: { type: string; message: string; code?: string | null };
}
interface OpenAiAnswer {
  id: string;
  choices: { message: { content: string }; finish_reason: string }[];
  usage: { prompt_tokens: number; completion_tokens: number; total_tokens: number };
}
interface AnthropicAnswer {
  id: string;
  content: { type: string; text: string }[];
  usage: { input_tokens: number; output_tokens: number };
}
const json = async <T>(res: Response | Promise<Response>): Promise<T> => (await (await res).json()) as T;
let ai: FakeAiProvider;

beforeEach(async () => {
  ai = await startFakeAiProvider();
});
afterEach(async () => {
  await ai.close();
});

const openAiBody = (extra: Record<string, unknown> = {}) => ({
  model: 'gpt-4o-mini',
  messages: [
    { role: 'system', content: 'You summarize incidents.' },
    { role: 'user', content: 'Summarize INC-42 timeline: replica lag on pg-2' },
  ],
  temperature: 0.2,
  ...extra,
});

const anthropicBody = (extra: Record<string, unknown> = {}) => ({
  model: 'claude-sonnet-4-5',
  max_tokens: 400,
  system: 'You summarize incidents.',
  messages: [{ role: 'user', content: [{ type: 'text', text: 'Summarize INC-42 timeline: pg-2 down' }] }],
  ...extra,
});

function openAi(body: unknown, headers: Record<string, string> = { authorization: `Bearer ${KEY}` }) {
  return fetch(`${ai.openAiBaseUrl}/chat/completions`, {
    method: 'POST',
    headers: { 'content-type': 'application/json', ...headers },
    body: typeof body === 'string' ? body : JSON.stringify(body),
  });
}

function anthropic(
  body: unknown,
  headers: Record<string, string> = { 'x-api-key': KEY, 'anthropic-version': '2023-06-01' },
  init: RequestInit = {},
) {
  return fetch(`${ai.anthropicBaseUrl}/v1/messages`, {
    method: 'POST',
    headers: { 'content-type': 'application/json', ...headers },
    body: JSON.stringify(body),
    ...init,
  });
}

describe('OpenAI-compatible chat completions', () => {
  it('answers the documented shape with the responder text and usage', async () => {
    ai.setResponder((req) => `summary of ${req.messages.length} messages`);
    const res = await openAi(openAiBody());
    expect(res.status).toBe(200);
    const body = await json<OpenAiAnswer>(res);
    expect(body).toMatchObject({
      object: 'chat.completion',
      model: 'gpt-4o-mini',
      choices: [
        {
          index: 0,
          message: { role: 'assistant', content: 'summary of 2 messages', refusal: null },
          logprobs: null,
          finish_reason: 'stop',
        },
      ],
    });
    expect(body.id).toMatch(/^chatcmpl-/);
    const { prompt_tokens, completion_tokens, total_tokens } = body.usage;
    expect(prompt_tokens).toBeGreaterThan(0);
    expect(total_tokens).toBe(prompt_tokens + completion_tokens);
  });

  it('records the request so tests can assert what the prompt contained', async () => {
    await openAi(openAiBody({ max_tokens: 400 }));
    expect(ai.lastRequest()).toMatchObject({
      provider: 'openai',
      model: 'gpt-4o-mini',
      system: 'You summarize incidents.',
      maxTokens: 400,
      status: 200,
    });
    expect(ai.lastRequest()?.prompt).toContain('replica lag on pg-2');
    expect(ai.lastRequest()?.headers.authorization).toBe(`Bearer ${KEY}`);
  });

  it('refuses a missing or wrong key with 401 in the OpenAI error envelope', async () => {
    const missing = await openAi(openAiBody(), {});
    expect(missing.status).toBe(401);
    expect(await missing.json()).toMatchObject({ error: { type: 'invalid_request_error', param: null } });
    const wrong = await openAi(openAiBody(), { authorization: 'Bearer nope' });
    expect(await wrong.json()).toMatchObject({ error: { code: 'invalid_api_key' } });
    expect(ai.requests.map((r) => r.status)).toEqual([401, 401]);
  });

  it('refuses bad bodies with 400, and streaming, which the fake does not do', async () => {
    expect((await openAi('{not json')).status).toBe(400);
    expect((await openAi({ model: 'gpt-4o-mini', messages: [] })).status).toBe(400);
    const stream = await openAi(openAiBody({ stream: true }));
    expect(stream.status).toBe(400);
    expect((await json<ErrorAnswer>(stream)).error.message).toMatch(/stream/);
  });

  it('truncates to max_completion_tokens with finish_reason length', async () => {
    ai.setResponder(() => 'x'.repeat(400));
    const body = await json<OpenAiAnswer>(openAi(openAiBody({ max_completion_tokens: 10 })));
    expect(body.choices[0]).toMatchObject({ finish_reason: 'length' });
    expect(body.choices[0]?.message.content).toHaveLength(40);
    expect(body.usage.completion_tokens).toBe(10);
  });

  it('answers 404 naming the path for the Responses API and other wrong base URLs', async () => {
    const res = await fetch(`${ai.openAiBaseUrl}/responses`, { method: 'POST', body: '{}' });
    expect(res.status).toBe(404);
    expect((await json<ErrorAnswer>(res)).error.message).toBe('Invalid URL (POST /v1/responses)');
  });
});

describe('Anthropic messages', () => {
  it('answers the documented shape with stop_reason and usage', async () => {
    ai.setResponder(async (req) => `Anthropic summary: ${req.system}`);
    const res = await anthropic(anthropicBody());
    expect(res.status).toBe(200);
    const body = await json<AnthropicAnswer>(res);
    expect(body).toMatchObject({
      type: 'message',
      role: 'assistant',
      model: 'claude-sonnet-4-5',
      content: [{ type: 'text', text: 'Anthropic summary: You summarize incidents.' }],
      stop_reason: 'end_turn',
      stop_sequence: null,
    });
    expect(body.id).toMatch(/^msg_/);
    expect(body.usage.input_tokens).toBeGreaterThan(0);
    expect(body.usage.output_tokens).toBeGreaterThan(0);
    expect(ai.lastRequest()?.prompt).toContain('pg-2 down');
  });

  it('needs x-api-key (not a Bearer token) and anthropic-version', async () => {
    const bearer = await anthropic(anthropicBody(), {
      authorization: `Bearer ${KEY}`,
      'anthropic-version': '1',
    });
    expect(bearer.status).toBe(401);
    expect(await bearer.json()).toEqual({
      type: 'error',
      error: { type: 'authentication_error', message: 'invalid x-api-key' },
    });
    const noVersion = await anthropic(anthropicBody(), { 'x-api-key': KEY });
    expect(noVersion.status).toBe(400);
    expect((await json<ErrorAnswer>(noVersion)).error.type).toBe('invalid_request_error');
  });

  it('requires max_tokens and stops with max_tokens when the answer is longer', async () => {
    const { max_tokens: _omit, ...withoutMax } = anthropicBody();
    expect((await anthropic(withoutMax)).status).toBe(400);
    ai.setResponder(() => 'y'.repeat(100));
    const body = await json<AnthropicAnswer>(anthropic(anthropicBody({ max_tokens: 5 })));
    expect(body).toMatchObject({ stop_reason: 'max_tokens', usage: { output_tokens: 5 } });
    expect(body.content[0]?.text).toHaveLength(20);
  });
});

describe('failure knobs', () => {
  it('rate limits with retry-after, once, and only for the chosen provider', async () => {
    ai.rateLimitNext({ provider: 'anthropic', retryAfter: 7, shouldRetry: false });
    expect((await openAi(openAiBody())).status).toBe(200);
    const limited = await anthropic(anthropicBody());
    expect(limited.status).toBe(429);
    expect(limited.headers.get('retry-after')).toBe('7');
    expect(limited.headers.get('x-should-retry')).toBe('false');
    expect((await json<ErrorAnswer>(limited)).error.type).toBe('rate_limit_error');
    expect((await anthropic(anthropicBody())).status).toBe(200);
  });

  it('answers 429 in the OpenAI envelope too', async () => {
    ai.rateLimitNext();
    const limited = await openAi(openAiBody());
    expect(limited.status).toBe(429);
    expect(limited.headers.get('retry-after')).toBe('1');
    expect(await limited.json()).toMatchObject({ error: { code: 'rate_limit_exceeded' } });
  });

  it('fails with 500, or 529 overloaded for Anthropic, N times', async () => {
    ai.failNext({ times: 2 });
    expect((await openAi(openAiBody())).status).toBe(500);
    const second = await anthropic(anthropicBody());
    expect(second.status).toBe(500);
    expect((await json<ErrorAnswer>(second)).error.type).toBe('api_error');
    ai.failNext({ status: 529 });
    const overloaded = await anthropic(anthropicBody());
    expect(overloaded.status).toBe(529);
    expect((await json<ErrorAnswer>(overloaded)).error.type).toBe('overloaded_error');
    expect((await openAi(openAiBody())).status).toBe(200);
  });

  it('answers 500 when the responder throws', async () => {
    ai.setResponder(() => {
      throw new Error('boom');
    });
    expect((await openAi(openAiBody())).status).toBe(500);
  });

  it('sends malformed 200 answers: cut-off JSON, empty body, no content', async () => {
    ai.malformedNext({ shape: 'not_json' });
    const cut = await openAi(openAiBody());
    expect(cut.status).toBe(200);
    await expect(cut.json()).rejects.toThrow();
    ai.malformedNext({ shape: 'empty' });
    expect(await (await openAi(openAiBody())).text()).toBe('');
    ai.malformedNext({ shape: 'no_content', provider: 'anthropic' });
    expect((await json<AnthropicAnswer>(anthropic(anthropicBody()))).content).toEqual([]);
  });

  it('answers slowly enough to hit a client timeout', async () => {
    ai.slowNext({ ms: 300 });
    await expect(
      anthropic(anthropicBody(), undefined, { signal: AbortSignal.timeout(50) }),
    ).rejects.toThrow();
    ai.setLatency(120);
    const started = Date.now();
    expect((await openAi(openAiBody())).status).toBe(200);
    expect(Date.now() - started).toBeGreaterThanOrEqual(110);
  });
});
