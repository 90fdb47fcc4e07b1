import pino, { type DestinationStream, type Logger, type LoggerOptions } from 'pino';

export type { Logger } from 'pino';

/**
 * Paths pino blanks out wherever they appear in a log object. Secrets must never reach a log line
 * (docs/architecture.md#code-habits); redaction is the safety net behind not logging them at all.
 */
export const redactedPaths = [
  'password',
  '*.password',
  'password_hash',
  '*.password_hash',
  'token',
  '*.token',
  'api_token',
  '*.api_token',
  'signing_secret',
  '*.signing_secret',
  'authorization',
  '*.authorization',
  'headers.authorization',
  'headers.cookie',
  'req.headers.authorization',
  'req.headers.cookie',
  'config.databaseUrl',
  'config.redis.password',
  'config.chat.botToken',
  'config.chat.signingSecret',
  'config.telegram.botToken',
  'config.teams.appPassword',
  'config.ai.apiKey',
];

/**
 * Every error is logged under `err` in one shape: `type`, `message`, `code` when it has one, and
 * `stack`. Nothing else of the error is copied: a client's error can carry the request it failed on,
 * headers and parameters included, and the redaction paths cannot reach every depth.
 */
export function serializeError(value: unknown): unknown {
  if (!(value instanceof Error)) return value;
  const code = (value as { code?: unknown }).code;
  return {
    type: value.constructor?.name ?? value.name,
    message: value.message,
    ...(code === undefined ? {} : { code }),
    stack: value.stack,
  };
}

export interface CreateLoggerOptions {
  level?: LoggerOptions['level'];
  name?: string;
  destination?: DestinationStream;
}

export function createLogger(options: CreateLoggerOptions = {}): Logger {
  const pinoOptions: LoggerOptions = {
    level: options.level ?? 'info',
    base: options.name ? { app: options.name } : {},
    redact: { paths: redactedPaths, censor: '[redacted]' },
    serializers: { err: serializeError },
    timestamp: pino.stdTimeFunctions.isoTime,
    formatters: { level: (label) => ({ level: label }) },
  };
  return options.destination ? pino(pinoOptions, options.destination) : pino(pinoOptions);
}

/** Removes the credentials from a connection URL so it can be shown in a log line. */
export function redactUrl(url: string): string {
  try {
    const parsed = new URL(url);
    if (parsed.password) parsed.password = '***';
    return parsed.toString();
  } catch {
    return '[unparseable url]';
  }
}
