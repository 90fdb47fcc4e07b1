import {
  type AiMessage,
  type AiProviderKind,
  anthropicMessage,
  errorBody,
  estimateTokens,
  type MalformedShape,
  malformed,
  openAiCompletion,
  parsePrompt,
  requestProblem,
} from './ai-provider/shapes';
import { FaultQueue } from './faults';
import { listen, type RunningServer, sleep } from './http-server';

/**
 * A fake AI provider (docs/ai.md) speaking both OpenAI-compatible Chat Completions
 * (`POST /v1/chat/completions`) and Anthropic Messages (`POST /v1/messages`). It records every request so
 * tests can assert what the prompt contained, answers with a pluggable responder, and fails on demand.
 */

export interface AiRequest {
  provider: AiProviderKind;
  model: string | undefined;
  system: string | undefined;
  messages: AiMessage[];
  /** The system text and every message, joined by blank lines: one string to run `toContain` on. */
  prompt: string;
  maxTokens: number | undefined;
  body: Record<string, unknown>;
  headers: Record<string, string>;
  time: Date;
  /** HTTP status answered. */
  status: number;
}

export type AiResponder = (request: AiRequest) => string | Promise<string>;

export interface FakeAiProviderOptions {
  /** Expected key: `Authorization: Bearer` for OpenAI, `x-api-key` for Anthropic. Default `test-ai-key`. */
  apiKey?: string;
  responder?: AiResponder;
  latencyMs?: number;
}

type AiFault =
  | { kind: 'rate_limit'; retryAfter: number; shouldRetry?: boolean }
  | { kind: 'error'; status: number; shouldRetry?: boolean }
  | { kind: 'malformed'; shape: MalformedShape }
  | { kind: 'slow'; ms: number };

interface FaultTarget {
  times?: number;
  /** Only this provider's endpoint; default both. */
  provider?: AiProviderKind;
}

const ROUTES: Record<string, AiProviderKind> = {
  '/v1/chat/completions': 'openai',
  '/v1/messages': 'anthropic',
};

export const defaultAiResponder: AiResponder = (req) => {
  const lastUser = [...req.messages].reverse().find((m) => m.role === 'user');
  return `Fake ${req.provider} answer to: ${(lastUser?.content ?? '').slice(0, 200)}`;
};

export class FakeAiProvider {
  readonly requests: AiRequest[] = [];
  apiKey: string;
  private responder: AiResponder;
  private latencyMs: number;
  private readonly faults = new FaultQueue<AiFault>();
  private counter = 0;
  private server!: RunningServer;

  constructor(options: FakeAiProviderOptions = {}) {
    this.apiKey = options.apiKey ?? 'test-ai-key';
    this.responder = options.responder ?? defaultAiResponder;
    this.latencyMs = options.latencyMs ?? 0;
  }

  get url(): string {
    return this.server.origin;
  }

  /** `AI_BASE_URL` for `openai` (its SDK appends `/chat/completions` to a base ending in `/v1`). */
  get openAiBaseUrl(): string {
    return `${this.server.origin}/v1`;
  }

  /** `AI_BASE_URL` for `@anthropic-ai/sdk` (it appends `/v1/messages`). `@ai-sdk/anthropic` wants `/v1`. */
  get anthropicBaseUrl(): string {
    return this.server.origin;
  }

  async start(): Promise<this> {
    this.server = await listen((req) => this.handle(req));
    return this;
  }

  close(): Promise<void> {
    return this.server.close();
  }

  lastRequest(): AiRequest | undefined {
    return this.requests.at(-1);
  }

  setResponder(responder: AiResponder): void {
    this.responder = responder;
  }

  setLatency(ms: number): void {
    this.latencyMs = ms;
  }

  /** 429 with `retry-after` (seconds). `shouldRetry` adds the SDKs' `x-should-retry` header. */
  rateLimitNext(options: FaultTarget & { retryAfter?: number; shouldRetry?: boolean } = {}): void {
    const fault: AiFault = { kind: 'rate_limit', retryAfter: options.retryAfter ?? 1 };
    if (options.shouldRetry !== undefined) fault.shouldRetry = options.shouldRetry;
    this.faults.add(options.provider ?? '*', fault, options.times ?? 1);
  }

  /** An error status in the provider's envelope: 500 by default, 503, or Anthropic's 529 overloaded. */
  failNext(options: FaultTarget & { status?: number; shouldRetry?: boolean } = {}): void {
    const fault: AiFault = { kind: 'error', status: options.status ?? 500 };
    if (options.shouldRetry !== undefined) fault.shouldRetry = options.shouldRetry;
    this.faults.add(options.provider ?? '*', fault, options.times ?? 1);
  }

  /** Forgets every queued fault. */
  clearFaults(): void {
    this.faults.clear();
  }

  /** HTTP 200 with a body the client cannot use. */
  malformedNext(options: FaultTarget & { shape?: MalformedShape } = {}): void {
    this.faults.add(
      options.provider ?? '*',
      { kind: 'malformed', shape: options.shape ?? 'not_json' },
      options.times ?? 1,
    );
  }

  /** Delay the next answers by `ms` (on top of the constant latency), e.g. past a client timeout. */
  slowNext(options: FaultTarget & { ms: number }): void {
    this.faults.add(options.provider ?? '*', { kind: 'slow', ms: options.ms }, options.times ?? 1);
  }

  private async handle(req: Request): Promise<Response> {
    const path = new URL(req.url).pathname;
    const provider = ROUTES[path];
    if (req.method !== 'POST' || !provider) {
      // The message names the path, which is what you need when a client picked the wrong base URL.
      return Response.json(errorBody('openai', 404, `Invalid URL (${req.method} ${path})`), { status: 404 });
    }
    if (this.latencyMs > 0) await sleep(this.latencyMs);
    const raw = await req.text();
    let body: Record<string, unknown> = {};
    let parsedJson = true;
    try {
      const parsed = JSON.parse(raw) as unknown;
      if (typeof parsed === 'object' && parsed !== null && !Array.isArray(parsed))
        body = parsed as typeof body;
      else parsedJson = false;
    } catch {
      parsedJson = false;
    }
    const prompt = parsePrompt(provider, body);
    const record: AiRequest = {
      provider,
      ...prompt,
      prompt: [prompt.system, ...prompt.messages.map((m) => m.content)].filter(Boolean).join('\n\n'),
      body,
      headers: Object.fromEntries(req.headers),
      time: new Date(),
      status: 0,
    };
    this.requests.push(record);
    const response = await this.answer(provider, req.headers, parsedJson ? body : undefined, record);
    record.status = response.status;
    return response;
  }

  private async answer(
    provider: AiProviderKind,
    headers: Headers,
    body: Record<string, unknown> | undefined,
    record: AiRequest,
  ): Promise<Response> {
    const error = (status: number, message: string, code: string | null = null, extra = {}) =>
      Response.json(errorBody(provider, status, message, code), { status, headers: extra });
    const authError = this.authProblem(provider, headers);
    if (authError) return authError;

    const fault = this.faults.take(provider);
    if (fault?.kind === 'slow') await sleep(fault.ms);
    if (fault?.kind === 'rate_limit') {
      const extra: Record<string, string> = { 'retry-after': String(fault.retryAfter) };
      if (fault.shouldRetry !== undefined) extra['x-should-retry'] = String(fault.shouldRetry);
      return error(429, 'Rate limit reached for requests', 'rate_limit_exceeded', extra);
    }
    if (fault?.kind === 'error') {
      const extra = fault.shouldRetry === undefined ? {} : { 'x-should-retry': String(fault.shouldRetry) };
      return error(fault.status, 'The server had an error while processing your request.', null, extra);
    }
    if (fault?.kind === 'malformed') return malformed(fault.shape, provider);

    if (!body) return error(400, 'We could not parse the JSON body of your request.');
    const problem = requestProblem(provider, body);
    if (problem) return error(400, problem);

    let text: string;
    try {
      text = await this.responder(record);
    } catch (err) {
      return error(500, `fake responder failed: ${(err as Error).message}`);
    }
    return Response.json(this.completion(provider, record, text));
  }

  private authProblem(provider: AiProviderKind, headers: Headers): Response | null {
    if (provider === 'openai') {
      const key = headers.get('authorization')?.match(/^Bearer\s+(.+)$/i)?.[1];
      if (key === this.apiKey) return null;
      const message = key ? 'Incorrect API key provided.' : "You didn't provide an API key.";
      const code = key ? 'invalid_api_key' : null;
      return Response.json(errorBody(provider, 401, message, code), { status: 401 });
    }
    if (headers.get('x-api-key') !== this.apiKey) {
      return Response.json(errorBody(provider, 401, 'invalid x-api-key'), { status: 401 });
    }
    if (!headers.get('anthropic-version')) {
      return Response.json(errorBody(provider, 400, 'anthropic-version: header is required'), {
        status: 400,
      });
    }
    return null;
  }

  /** Usage follows the prompt size; `max_tokens` below the answer's size truncates it, as real APIs do. */
  private completion(provider: AiProviderKind, record: AiRequest, fullText: string) {
    this.counter += 1;
    let text = fullText;
    let completionTokens = estimateTokens(text);
    const truncated = record.maxTokens !== undefined && completionTokens > record.maxTokens;
    if (truncated) {
      text = text.slice(0, record.maxTokens! * 4);
      completionTokens = record.maxTokens!;
    }
    const c = { text, truncated, promptTokens: estimateTokens(record.prompt), completionTokens };
    const model = record.model ?? 'unknown';
    return provider === 'openai'
      ? openAiCompletion(`chatcmpl-fake${this.counter}`, model, c)
      : anthropicMessage(`msg_fake${this.counter}`, model, c);
  }
}

export async function startFakeAiProvider(options: FakeAiProviderOptions = {}): Promise<FakeAiProvider> {
  return new FakeAiProvider(options).start();
}

export type { AiMessage, AiProviderKind, MalformedShape };
