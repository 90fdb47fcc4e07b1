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
  'config.ai.apiKey',
];

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
