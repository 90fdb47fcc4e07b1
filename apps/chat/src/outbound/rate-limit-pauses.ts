import { retryAfterSeconds } from '@firebreak/chat-client';
import { createSharedPauses, type SharedPauses } from '@firebreak/queue';
import type { ServiceContext } from '@firebreak/services';
import type { WebClient } from '@slack/web-api';
import { MethodPausedError } from './errors';
import { reportPauseEnded, reportPauseStarted } from './failures';

/**
 * What one 429 pauses: the method, workspace-wide, as Slack counts its tiers; for `chat.postMessage`,
 * which Slack paces per channel, only that channel, so one busy channel never holds back the pages
 * and posts of the others (docs/integrations/slack.md#rate-limits).
 */
export interface PauseScope {
  method: string;
  channelId?: string;
}

export function pauseScopeOf(method: string, args: unknown): PauseScope {
  const channel = (args as { channel?: unknown } | undefined)?.channel;
  return method === 'chat.postMessage' && typeof channel === 'string'
    ? { method, channelId: channel }
    : { method };
}

const keyOf = (scope: PauseScope) => (scope.channelId ? `${scope.method}:${scope.channelId}` : scope.method);

/**
 * The chat service's rate limits honoured by every chat job at once. A 429 on a method pauses it, in
 * Redis (under the installation's key prefix), for `Retry-After`, so every worker in every process
 * agrees; a call of a paused method is not made: it throws `MethodPausedError`, and the job comes back
 * when the pause ends. The pause is logged once when it starts and once when calls succeed again.
 * Redis unreachable: calls go ahead unpaused (each 429 still re-schedules its own job).
 */
export class ChatPauses {
  private readonly shared: SharedPauses;
  /** Pauses this process already knows about (key → end, epoch ms), so a storm asks Redis once. */
  private readonly knownUntil = new Map<string, number>();
  /** Pauses this process saw: its next success there may end the episode. */
  private readonly seen = new Set<string>();

  constructor(private readonly ctx: Pick<ServiceContext, 'redis' | 'redisPrefix' | 'logger'>) {
    this.shared = createSharedPauses(ctx.redis, `${ctx.redisPrefix}:chat`);
  }

  /** Runs one chat call unless its scope is paused. */
  async run<T>(scope: PauseScope, call: () => Promise<T>): Promise<T> {
    const key = keyOf(scope);
    const waitMs = await this.remainingMs(key);
    if (waitMs > 0) throw new MethodPausedError(scope.method, waitMs);
    let answer: T;
    try {
      answer = await call();
    } catch (error) {
      const retryAfter = retryAfterSeconds(error);
      if (retryAfter !== undefined) await this.pause(scope, key, retryAfter);
      throw error;
    }
    if (this.seen.delete(key) && (await this.quietly(() => this.shared.endEpisode(key), false))) {
      reportPauseEnded(this.ctx, scope);
    }
    return answer;
  }

  /** `client`, with every Web API method call going through `run`. */
  gate(client: WebClient): WebClient {
    return gateMethods(client, [], (method, args, call) => this.run(pauseScopeOf(method, args), call));
  }

  private async remainingMs(key: string): Promise<number> {
    const known = (this.knownUntil.get(key) ?? 0) - Date.now();
    if (known > 0) return known;
    this.knownUntil.delete(key);
    const left = await this.quietly(() => this.shared.remainingMs(key), 0);
    if (left > 0) {
      this.knownUntil.set(key, Date.now() + left);
      this.seen.add(key);
    }
    return left;
  }

  private async pause(scope: PauseScope, key: string, retryAfterS: number): Promise<void> {
    const ms = retryAfterS * 1000;
    this.knownUntil.set(key, Math.max(this.knownUntil.get(key) ?? 0, Date.now() + ms));
    this.seen.add(key);
    if (await this.quietly(() => this.shared.pause(key, ms), false))
      reportPauseStarted(this.ctx, scope, retryAfterS);
  }

  // The pause is an economy, not a guarantee: Redis failing must not fail the chat call. The client's
  // own watcher reports Redis being down.
  private async quietly<T>(operation: () => Promise<T>, fallback: T): Promise<T> {
    try {
      return await operation();
    } catch (error) {
      this.ctx.logger.debug({ err: error }, 'chat: rate-limit pause not shared (redis)');
      return fallback;
    }
  }
}

type Gate = (method: string, args: unknown, call: () => Promise<unknown>) => Promise<unknown>;

/**
 * The Web API client's methods are grouped by the method's name (`client.conversations.create` is
 * `conversations.create`): each function found under a group is wrapped with its method's name.
 * `apiCall(method, args)` is wrapped too. The client's own code keeps its unwrapped self.
 */
function gateMethods<T extends object>(target: T, path: string[], gate: Gate): T {
  return new Proxy(target, {
    get(object, key) {
      const value = Reflect.get(object, key, object) as unknown;
      if (typeof key !== 'string') return value;
      if (typeof value === 'function') {
        const fn = value as (...args: unknown[]) => Promise<unknown>;
        if (path.length === 0 && key !== 'apiCall') return fn.bind(object);
        const method = path.length === 0 ? undefined : [...path, key].join('.');
        return (...args: unknown[]) =>
          method === undefined
            ? gate(String(args[0]), args[1], () => fn.apply(object, args))
            : gate(method, args[0], () => fn.apply(object, args));
      }
      if (value !== null && typeof value === 'object') return gateMethods(value, [...path, key], gate);
      return value;
    },
  });
}
