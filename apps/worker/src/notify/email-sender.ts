import type { PagingConfig } from '@firebreak/config';
import { createTransport, type Transporter } from 'nodemailer';
import type { SendOutcome } from './outcome';

export type EmailConfig = NonNullable<PagingConfig['email']>;

export interface EmailMessage {
  to: string;
  subject: string;
  text: string;
  html: string;
}

/**
 * The whole SMTP exchange, waiting for a pooled connection included; a page waits on it, so it must
 * end. nodemailer's own timeouts are not that: `socketTimeout` counts only silence (a server trickling
 * a byte at a time never reaches it), and a message waiting for a busy pooled connection has none.
 */
export const SMTP_TIMEOUT_MS = 10_000;

const transports = new Map<string, Transporter>();

/** One pooled transport per SMTP URL: pages of one step go over one connection, not one each. */
function transportFor(cfg: EmailConfig): Transporter {
  let transport = transports.get(cfg.smtpUrl);
  if (!transport) {
    transport = createTransport({
      url: cfg.smtpUrl,
      pool: true,
      maxConnections: 2,
      connectionTimeout: SMTP_TIMEOUT_MS,
      greetingTimeout: SMTP_TIMEOUT_MS,
      socketTimeout: SMTP_TIMEOUT_MS,
    } as Parameters<typeof createTransport>[0]);
    transports.set(cfg.smtpUrl, transport);
  }
  return transport;
}

/** Closes the pooled connections (the worker's stop). */
export function closeEmailTransports(): void {
  for (const transport of transports.values()) transport.close();
  transports.clear();
}

/**
 * Sends one e-mail over `SMTP_URL` (docs/paging.md#e-mail). Never throws: the server's refusal or an
 * outage comes back as a `SendOutcome`. A 4xx reply from the server (greylisting, a full queue) and a
 * network failure may pass; a 5xx is a refusal of this message (unknown mailbox, rejected sender).
 */
export async function sendEmail(
  cfg: EmailConfig,
  message: EmailMessage,
  deadlineMs: number = SMTP_TIMEOUT_MS,
): Promise<SendOutcome> {
  const transport = transportFor(cfg);
  const sending = transport.sendMail({ from: cfg.from, ...message });
  let timer: NodeJS.Timeout | undefined;
  const deadline = new Promise<'deadline'>((resolve) => {
    timer = setTimeout(() => resolve('deadline'), deadlineMs);
  });
  try {
    const info = await Promise.race([sending, deadline]);
    if (info === 'deadline') {
      // Closing the pool ends this exchange (and any other on it, which are retried as this one is);
      // the next page opens a new one. The server may still have taken the message: sent twice at worst.
      sending.catch(() => undefined);
      if (transports.get(cfg.smtpUrl) === transport) transports.delete(cfg.smtpUrl);
      transport.close();
      return { ok: false, retryable: true, error: `smtp timed out after ${deadlineMs / 1000} s` };
    }
    if ((info.rejected?.length ?? 0) > 0) {
      return { ok: false, retryable: false, error: `smtp refused the recipient: ${info.response}` };
    }
    return { ok: true, providerId: info.messageId };
  } catch (error) {
    return smtpFailure(error);
  } finally {
    clearTimeout(timer);
  }
}

function smtpFailure(error: unknown): SendOutcome {
  const e = error as { responseCode?: unknown; code?: unknown; response?: unknown; message?: unknown };
  const responseCode = typeof e.responseCode === 'number' ? e.responseCode : undefined;
  // The server's own words, never the URL (it carries the SMTP password).
  const said = typeof e.response === 'string' ? e.response.slice(0, 200) : undefined;
  if (responseCode !== undefined) {
    return { ok: false, retryable: responseCode < 500, error: `smtp ${responseCode}: ${said ?? 'refused'}` };
  }
  const code = typeof e.code === 'string' ? e.code : 'error';
  // EAUTH (wrong credentials), EENVELOPE (no valid address): the same message would be refused again.
  const retryable = !['EAUTH', 'EENVELOPE', 'EMESSAGE'].includes(code);
  return { ok: false, retryable, error: `smtp unreachable: ${code}` };
}
