/**
 * Wire shapes of the two providers (docs/ai.md#openai-compatible, docs/ai.md#anthropic): how each reads a
 * request, answers, and spells its errors. Kept apart from the server so the differences sit side by side.
 */

export type AiProviderKind = 'openai' | 'anthropic';

export interface AiMessage {
  role: string;
  /** Text parts joined; image or tool parts are dropped. */
  content: string;
}

export interface ParsedPrompt {
  model: string | undefined;
  system: string | undefined;
  messages: AiMessage[];
  maxTokens: number | undefined;
}

export interface Completion {
  text: string;
  truncated: boolean;
  promptTokens: number;
  completionTokens: number;
}

/** Content is a string or a list of `{type: 'text', text}` parts in both APIs. */
export function textOf(content: unknown): string {
  if (typeof content === 'string') return content;
  if (!Array.isArray(content)) return '';
  return content
    .map((part) => (typeof part?.text === 'string' ? (part.text as string) : ''))
    .filter(Boolean)
    .join('\n');
}

const num = (value: unknown): number | undefined => (typeof value === 'number' ? value : undefined);

export function parsePrompt(provider: AiProviderKind, body: Record<string, unknown>): ParsedPrompt {
  const raw = Array.isArray(body.messages) ? (body.messages as Record<string, unknown>[]) : [];
  const messages = raw.map((m) => ({ role: String(m?.role), content: textOf(m?.content) }));
  const model = typeof body.model === 'string' ? body.model : undefined;
  if (provider === 'anthropic') {
    return { model, system: textOf(body.system) || undefined, messages, maxTokens: num(body.max_tokens) };
  }
  // OpenAI puts instructions in `system` (or, for newer models, `developer`) messages.
  const system = messages
    .filter((m) => m.role === 'system' || m.role === 'developer')
    .map((m) => m.content)
    .join('\n');
  return {
    model,
    system: system || undefined,
    messages,
    maxTokens: num(body.max_completion_tokens) ?? num(body.max_tokens),
  };
}

/** What the real API would refuse with 400, or null. */
export function requestProblem(provider: AiProviderKind, body: Record<string, unknown>): string | null {
  if (typeof body.model !== 'string' || body.model === '') return 'model: Field required';
  if (!Array.isArray(body.messages) || body.messages.length === 0) return 'messages: Field required';
  if (provider === 'anthropic' && typeof body.max_tokens !== 'number') return 'max_tokens: Field required';
  if (body.stream === true) return 'stream: the fake AI provider does not stream; send stream: false';
  return null;
}

/** Rough token count (4 characters a token) so that usage numbers move with prompt size. */
export const estimateTokens = (text: string): number => Math.max(1, Math.ceil(text.length / 4));

export function openAiCompletion(id: string, model: string, c: Completion): Record<string, unknown> {
  return {
    id,
    object: 'chat.completion',
    created: Math.floor(Date.now() / 1000),
    model,
    choices: [
      {
        index: 0,
        message: { role: 'assistant', content: c.text, refusal: null },
        logprobs: null,
        finish_reason: c.truncated ? 'length' : 'stop',
      },
    ],
    usage: {
      prompt_tokens: c.promptTokens,
      completion_tokens: c.completionTokens,
      total_tokens: c.promptTokens + c.completionTokens,
    },
  };
}

export function anthropicMessage(id: string, model: string, c: Completion): Record<string, unknown> {
  return {
    id,
    type: 'message',
    role: 'assistant',
    model,
    content: [{ type: 'text', text: c.text }],
    stop_reason: c.truncated ? 'max_tokens' : 'end_turn',
    stop_sequence: null,
    usage: { input_tokens: c.promptTokens, output_tokens: c.completionTokens },
  };
}

const OPENAI_ERROR_TYPES: Record<number, string> = {
  400: 'invalid_request_error',
  401: 'invalid_request_error',
  404: 'invalid_request_error',
  429: 'requests',
};
const ANTHROPIC_ERROR_TYPES: Record<number, string> = {
  400: 'invalid_request_error',
  401: 'authentication_error',
  404: 'not_found_error',
  429: 'rate_limit_error',
  529: 'overloaded_error',
};

/** Each provider's error envelope for `status`. */
export function errorBody(
  provider: AiProviderKind,
  status: number,
  message: string,
  code: string | null = null,
): Record<string, unknown> {
  if (provider === 'anthropic') {
    return { type: 'error', error: { type: ANTHROPIC_ERROR_TYPES[status] ?? 'api_error', message } };
  }
  return { error: { message, type: OPENAI_ERROR_TYPES[status] ?? 'server_error', param: null, code } };
}

/** 200 answers a client cannot use: a cut-off body, an empty body, or valid JSON without any content. */
export type MalformedShape = 'not_json' | 'empty' | 'no_content';

export function malformed(shape: MalformedShape, provider: AiProviderKind): Response {
  if (shape === 'empty')
    return new Response('', { status: 200, headers: { 'content-type': 'application/json' } });
  if (shape === 'not_json') {
    // What a proxy's HTML error page or a cut-off body looks like to a JSON client.
    return new Response('{"id": "chatcmpl-broken", "choices": [', {
      status: 200,
      headers: { 'content-type': 'application/json' },
    });
  }
  const body =
    provider === 'openai'
      ? { id: 'chatcmpl-empty', object: 'chat.completion', choices: [] }
      : {
          id: 'msg_empty',
          type: 'message',
          role: 'assistant',
          content: [],
          stop_reason: 'end_turn',
        };
  return Response.json(body);
}
