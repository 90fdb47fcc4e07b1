import { createSharedPauses, type SharedPauses } from '@firebreak/queue';
import type { ServiceContext } from '@firebreak/services';
import type { WebClient } from '@slack/web-api';
import type { ChatPlatformName } from '../platform/chat-platform';
import { gateSlackClient } from '../platform/slack/pause-gate';
import { MethodPausedError, retryAfterOf } from './errors';
import { reportPauseEnded, reportPauseStarted } from './failures';

/**
 * What one 429 pauses: a platform method for the whole installation, or, where the platform paces
 * per channel, only that channel (each platform names its scopes: platform/slack/pause-gate.ts).
 */
export interface PauseScope {
  method: string;
  channelId?: string;
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

  constructor(
    private readonly ctx: Pick<ServiceContext, 'redis' | 'redisPrefix' | 'logger'>,
    private readonly platform: ChatPlatformName = 'slack',
  ) {
    // Slack's keys keep their unprefixed names, so a rolling upgrade shares its pauses with old workers.
    const platformKey = platform === 'slack' ? '' : `:${platform}`;
    this.shared = createSharedPauses(ctx.redis, `${ctx.redisPrefix}:chat${platformKey}`);
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
      const retryAfter = retryAfterOf(error);
      if (retryAfter !== undefined) await this.pause(scope, key, retryAfter);
      throw error;
    }
    if (this.seen.delete(key) && (await this.quietly(() => this.shared.endEpisode(key), false))) {
      reportPauseEnded(this.ctx, this.platform, scope);
    }
    return answer;
  }

  /** Slack's Web API `client`, with every method call going through `run`. */
  gate(client: WebClient): WebClient {
    return gateSlackClient(client, (scope, call) => this.run(scope, call));
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
      reportPauseStarted(this.ctx, this.platform, scope, retryAfterS);
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
