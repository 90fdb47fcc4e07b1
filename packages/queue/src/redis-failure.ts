import { connect } from 'node:net';

/**
 * Names a store failure the way the runbooks (docs/runbooks/) do. The store's own message
 * is kept in the line.
 */
export interface RedisFailure {
  reason: string;
  /** `redis: <reason> (<likely cause>): <message>` */
  line: string;
  /** The error in the shape every log line uses (`err`), without a stack: the line says where. */
  fields: { err: { type: string; code: string | undefined; message: string } };
}

const patterns: Array<{
  reason: string;
  cause: string;
  matches: (code: string | undefined, message: string) => boolean;
}> = [
  { reason: 'connection refused', cause: 'store down', matches: (code) => code === 'ECONNREFUSED' },
  {
    reason: 'NOAUTH',
    cause: 'the store requires a password and KV_PASSWORD is not set',
    matches: (_code, message) => /NOAUTH/.test(message),
  },
  {
    reason: 'WRONGPASS',
    cause: 'KV_PASSWORD does not match the store password',
    matches: (_code, message) => /WRONGPASS|invalid password/i.test(message),
  },
  {
    reason: 'password not expected',
    cause: 'KV_PASSWORD is set but the store has no password',
    matches: (_code, message) => /called without any password configured/i.test(message),
  },
  {
    reason: 'max number of clients reached',
    cause: "the store's maxclients limit",
    matches: (_code, message) => /max number of clients reached/i.test(message),
  },
  {
    reason: 'host not found',
    cause: 'the host in REDIS_URL or KV_SENTINEL_ADDRS does not resolve',
    matches: (code) => code === 'ENOTFOUND' || code === 'EAI_AGAIN',
  },
  {
    reason: 'connection timed out',
    cause: 'store host unreachable or overloaded',
    matches: (code, message) => code === 'ETIMEDOUT' || /timed? ?out/i.test(message),
  },
  {
    reason: 'no primary from sentinels',
    cause: 'KV_SENTINEL_ADDRS answered but named no reachable primary (failover in progress?)',
    matches: (_code, message) => /sentinel/i.test(message),
  },
  {
    reason: 'connection lost',
    cause: 'the store restarted or the network dropped the connection',
    matches: (code, message) =>
      code === 'ECONNRESET' || code === 'EPIPE' || /connection (is )?closed/i.test(message),
  },
];

export function describeRedisFailure(error: Error): RedisFailure {
  const code = (error as { code?: string }).code;
  const pattern = patterns.find((p) => p.matches(code, error.message));
  const reason = pattern?.reason ?? 'unavailable';
  const cause = pattern?.cause ?? 'unexpected store error';
  return {
    reason,
    line: `redis: ${reason} (${cause}): ${error.message}`,
    fields: { err: { type: error.constructor?.name ?? error.name, code, message: error.message } },
  };
}

/** ioredis failing a command because the socket is gone; the socket's own error was reported. */
export function isConsequenceOfLostConnection(error: Error): boolean {
  return /Stream isn't writeable|Connection is closed/i.test(error.message);
}

/** The server closed the connection under us (or refused it after accepting it). */
export function isDroppedConnection(error: Error): boolean {
  const code = (error as { code?: string }).code;
  return code === 'EPIPE' || code === 'ECONNRESET';
}

/**
 * What the server says, unasked, to a new connection: Redis at its `maxclients` answers
 * `-ERR max number of clients reached` and hangs up. Answers that error, or undefined when the server
 * says nothing within `timeoutMs` (it accepted us: the drop had another cause).
 */
export function readServerRefusal(host: string, port: number, timeoutMs = 500): Promise<Error | undefined> {
  return new Promise((resolve) => {
    let received = '';
    const socket = connect({ host, port });
    const finish = () => {
      socket.destroy();
      const line = received.split('\r\n')[0] ?? '';
      resolve(line.startsWith('-') ? new Error(line.slice(1)) : undefined);
    };
    socket.setTimeout(timeoutMs, finish);
    socket.on('data', (chunk) => {
      received += chunk.toString('utf8');
      if (received.includes('\r\n')) finish();
    });
    socket.on('error', finish);
    socket.on('close', finish);
  });
}
