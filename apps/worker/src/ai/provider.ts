import Anthropic from '@anthropic-ai/sdk';
import type { Config } from '@firebreak/config';
import OpenAI from 'openai';

export interface Completion {
  text: string;
  model: string;
}

/** The one thing the AI features need from a provider. */
export interface AiProvider {
  complete(prompt: { system: string; user: string; maxTokens: number }): Promise<Completion>;
}

const TIMEOUT_MS = 60_000;
// The SDKs retry 408/409/429/5xx themselves, honouring Retry-After; BullMQ retries the job on top.
const SDK_RETRIES = 2;

/**
 * `AI_PROVIDER=openai` covers any OpenAI-compatible chat-completions server (OpenAI, Ollama, vLLM,
 * LiteLLM…) through the official `openai` SDK; `anthropic` uses the official Anthropic SDK. Base URL
 * and key are always passed explicitly, so stray environment variables cannot redirect traffic.
 */
export function createAiProvider(ai: Config['ai']): AiProvider | undefined {
  if (ai.provider === 'openai') {
    const client = new OpenAI({
      apiKey: ai.apiKey ?? 'not-needed',
      baseURL: ai.baseUrl ?? 'https://api.openai.com/v1',
      maxRetries: SDK_RETRIES,
      timeout: TIMEOUT_MS,
    });
    const model = ai.model ?? 'gpt-4o-mini';
    return {
      async complete({ system, user, maxTokens }) {
        const response = await client.chat.completions.create({
          model,
          max_tokens: maxTokens,
          temperature: 0.2,
          messages: [
            { role: 'system', content: system },
            { role: 'user', content: user },
          ],
        });
        const text = response.choices[0]?.message?.content?.trim();
        if (!text) throw new Error('the AI provider answered without any text');
        return { text, model: response.model ?? model };
      },
    };
  }
  if (ai.provider === 'anthropic') {
    const client = new Anthropic({
      apiKey: ai.apiKey ?? '',
      baseURL: ai.baseUrl ?? 'https://api.anthropic.com',
      maxRetries: SDK_RETRIES,
      timeout: TIMEOUT_MS,
      // The Messages API as documented (docs/ai.md#anthropic): the key in `x-api-key` and a pinned API
      // version. This SDK release would otherwise send the key as a Bearer token and its own date.
      defaultHeaders: {
        'x-api-key': ai.apiKey ?? '',
        'anthropic-version': '2023-06-01',
        authorization: null,
      },
    });
    const model = ai.model ?? 'claude-sonnet-4-5';
    return {
      async complete({ system, user, maxTokens }) {
        const response = await client.messages.create({
          model,
          max_tokens: maxTokens,
          system,
          messages: [{ role: 'user', content: user }],
        });
        const text = response.content
          .map((block) => (block.type === 'text' ? block.text : ''))
          .join('')
          .trim();
        if (!text) throw new Error('the AI provider answered without any text');
        return { text, model: response.model ?? model };
      },
    };
  }
  return undefined;
}
