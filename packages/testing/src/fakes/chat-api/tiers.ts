import { type SlackArgs, str } from './shared';

/**
 * Slack's Web API rate limits (docs/integrations/slack.md#rate-limits): per method, per workspace and
 * app, an allowance of calls a minute by tier. Slack publishes them as "1+", "20+", "50+" and "100+" a
 * minute; the fake holds each method to the floor, so code that copes here copes with Slack.
 */
export const TIER_ALLOWANCE = { 1: 1, 2: 20, 3: 50, 4: 100 } as const;
export type Tier = keyof typeof TIER_ALLOWANCE;

/**
 * The tier of each method the fake serves. `auth.test` has "special" limits with no published number
 * and is left unlimited; `chat.postMessage` is special too and paced per channel (below).
 */
export const METHOD_TIERS: Readonly<Record<string, Tier>> = {
  'conversations.create': 2,
  'conversations.rename': 2,
  'conversations.setTopic': 2,
  'conversations.setPurpose': 2,
  'conversations.archive': 2,
  'conversations.join': 3,
  'conversations.invite': 3,
  'conversations.info': 3,
  'conversations.open': 3,
  'chat.update': 3,
  'users.lookupByEmail': 3,
  'chat.postEphemeral': 4,
  'users.info': 4,
};

export const POST_MESSAGE = 'chat.postMessage';
/** Slack's minute, which a test may shrink (`tierWindowMs`) to run a storm in a second or two. */
export const SLACK_MINUTE_MS = 60_000;
/**
 * chat.postMessage: "generally allows posting one message per second per channel", with short bursts
 * tolerated. Slack gives no burst size; the fake lets a quiet channel take this many at once.
 */
export const POST_BURST = 5;

export interface TierLimiterOptions {
  /** How long Slack's minute lasts here (default 60 000 ms); a second scales by the same factor. */
  windowMs?: number;
  postBurst?: number;
  now?: () => number;
}

interface Window {
  startedAt: number;
  used: number;
}

interface Bucket {
  tokens: number;
  at: number;
}

/**
 * Decides whether a call fits its method's allowance. A method's window opens with its first call and
 * lasts a minute; the allowance frees when it closes, which is what `Retry-After` counts down to.
 * chat.postMessage is a bucket per channel instead: `postBurst` messages, one more each second.
 */
export class TierLimiter {
  private readonly windowMs: number;
  private readonly postBurst: number;
  private readonly now: () => number;
  private readonly windows = new Map<string, Window>();
  private readonly buckets = new Map<string, Bucket>();

  constructor(options: TierLimiterOptions = {}) {
    this.windowMs = options.windowMs ?? SLACK_MINUTE_MS;
    this.postBurst = options.postBurst ?? POST_BURST;
    this.now = options.now ?? Date.now;
  }

  /** 0 when the call is accepted (and counted), else the whole seconds to put in `Retry-After`. */
  admit(method: string, args: SlackArgs): number {
    if (method === POST_MESSAGE) return this.admitPost(str(args.channel) ?? '');
    const tier = METHOD_TIERS[method];
    if (tier === undefined) return 0;
    const now = this.now();
    let window = this.windows.get(method);
    if (!window || now >= window.startedAt + this.windowMs) {
      window = { startedAt: now, used: 0 };
      this.windows.set(method, window);
    }
    if (window.used < TIER_ALLOWANCE[tier]) {
      window.used += 1;
      return 0;
    }
    return wholeSeconds(window.startedAt + this.windowMs - now);
  }

  private admitPost(channel: string): number {
    const now = this.now();
    const secondMs = this.windowMs / 60;
    const bucket = this.buckets.get(channel) ?? { tokens: this.postBurst, at: now };
    bucket.tokens = Math.min(this.postBurst, bucket.tokens + (now - bucket.at) / secondMs);
    bucket.at = now;
    this.buckets.set(channel, bucket);
    if (bucket.tokens >= 1) {
      bucket.tokens -= 1;
      return 0;
    }
    return wholeSeconds((1 - bucket.tokens) * secondMs);
  }
}

/** `Retry-After` is whole seconds, rounded up so that a caller who waits it out finds room. */
const wholeSeconds = (ms: number): number => Math.max(1, Math.ceil(ms / 1000));
