import type { ProcessMetrics } from '@firebreak/runtime';

// What the primary and its HTTP processes say to each other over the cluster's IPC channel.

/** Primary → HTTP process, the answer to its `hello`: what to connect to. */
export interface ServeMessage {
  type: 'firebreak:serve';
  databaseUrl: string;
  redisUrl: string;
  /** Which of the N places this process fills (1…N); a replacement takes its predecessor's. */
  slot: number;
  /** Whether the primary has migrated the database and created the first admin yet. */
  prepared: boolean;
}

export type PrimaryMessage =
  | ServeMessage
  | { type: 'firebreak:prepared' }
  // Stop taking connections, answer every one given (all were sent before this), exit 0.
  | { type: 'firebreak:drain' }
  // Sent with a connection's socket, which the primary accepted without reading from it.
  | { type: 'firebreak:connection' }
  | { type: 'firebreak:collect-metrics'; id: number }
  | { type: 'firebreak:metrics'; id: number; text?: string; error?: string };

export type HttpProcessMessage =
  // Once its modules are loaded and it listens for messages (any sent earlier would be lost).
  | { type: 'firebreak:hello' }
  // Its server is up: the primary may hand it connections.
  | { type: 'firebreak:accepting' }
  // SIGTERM reached it alone: the primary stops handing it connections and answers with `drain`.
  | { type: 'firebreak:draining' }
  | { type: 'firebreak:local-metrics'; id: number; metrics: ProcessMetrics }
  | { type: 'firebreak:scrape'; id: number };

function isTyped(message: unknown): message is { type: string } {
  return (
    typeof message === 'object' &&
    message !== null &&
    typeof (message as { type?: unknown }).type === 'string'
  );
}

/** Our messages only: prom-client and Node's cluster module use the same channel. */
export function isPrimaryMessage(message: unknown): message is PrimaryMessage {
  return isTyped(message) && message.type.startsWith('firebreak:');
}

export function isHttpProcessMessage(message: unknown): message is HttpProcessMessage {
  return isTyped(message) && message.type.startsWith('firebreak:');
}
