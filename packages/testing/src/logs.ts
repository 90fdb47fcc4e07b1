import { Writable } from 'node:stream';
import { createLogger, type Logger } from '@firebreak/logger';

export interface LogCapture {
  logger: Logger;
  /** Every line logged so far, parsed. */
  lines: Array<Record<string, unknown> & { msg?: string; level?: string }>;
  /** The messages (`msg`) logged so far. */
  messages(): string[];
}

/** A real pino logger (same redaction as production) whose lines the test can read. */
export function captureLogs(level: 'trace' | 'debug' | 'info' = 'info'): LogCapture {
  const lines: LogCapture['lines'] = [];
  const destination = new Writable({
    write(chunk, _encoding, callback) {
      for (const line of String(chunk).split('\n')) if (line.trim()) lines.push(JSON.parse(line));
      callback();
    },
  });
  const logger = createLogger({ level, name: 'test', destination });
  return { logger, lines, messages: () => lines.map((line) => String(line.msg)) };
}
