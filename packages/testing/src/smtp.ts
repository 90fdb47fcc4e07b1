import type { AddressInfo } from 'node:net';
import { simpleParser } from 'mailparser';
import { SMTPServer } from 'smtp-server';
import { waitFor } from './ports';

/** One message the test SMTP server accepted, parsed. */
export interface TestMail {
  from: string;
  /** The envelope's recipients (RCPT TO). */
  to: string[];
  subject: string;
  text: string;
  html: string;
  messageId: string | undefined;
}

export interface TestSmtpOptions {
  /**
   * Refuse a message as a real server would: return an SMTP reply code and text (4xx: try later,
   * 5xx: refused for good). Called once per message, in arrival order.
   */
  refuse?: (envelopeTo: string[]) => { code: number; message: string } | undefined;
  /** Answer each message only after this long, as a slow or distant server does. */
  acceptDelayMs?: number;
}

export interface TestSmtpServer {
  /** `smtp://127.0.0.1:<port>`, for `SMTP_URL`. */
  url: string;
  messages: TestMail[];
  waitForMessage(predicate: (mail: TestMail) => boolean, options?: { timeoutMs?: number }): Promise<TestMail>;
  close(): Promise<void>;
}

/**
 * A real SMTP server on a free local port that keeps what it accepts: plain SMTP, no TLS (STARTTLS is not
 * offered, so a client never upgrades), any credentials or none. Messages are parsed with mailparser,
 * so tests read the text and HTML as a mail client would.
 */
export async function startTestSmtpServer(options: TestSmtpOptions = {}): Promise<TestSmtpServer> {
  const messages: TestMail[] = [];
  const server = new SMTPServer({
    authOptional: true,
    disabledCommands: ['STARTTLS'],
    logger: false,
    onAuth: (_auth, _session, callback) => callback(null, { user: 'test' }),
    onData(stream, session, callback) {
      const to = session.envelope.rcptTo.map((r) => r.address);
      const refusal = options.refuse?.(to);
      simpleParser(stream)
        .then(async (mail) => {
          if (options.acceptDelayMs)
            await new Promise((resolve) => setTimeout(resolve, options.acceptDelayMs));
          if (refusal) {
            const error = Object.assign(new Error(refusal.message), { responseCode: refusal.code });
            callback(error);
            return;
          }
          messages.push({
            from: session.envelope.mailFrom ? session.envelope.mailFrom.address : '',
            to,
            subject: mail.subject ?? '',
            text: mail.text ?? '',
            html: typeof mail.html === 'string' ? mail.html : '',
            messageId: mail.messageId,
          });
          callback();
        })
        .catch((error: Error) => callback(error));
    },
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.server.address() as AddressInfo;
  return {
    url: `smtp://127.0.0.1:${port}`,
    messages,
    waitForMessage: (predicate, wait = {}) =>
      waitFor(() => messages.find(predicate), { what: 'an e-mail', timeoutMs: wait.timeoutMs ?? 10_000 }),
    close: () => new Promise<void>((resolve) => server.close(() => resolve())),
  };
}
