// The e-mail sender's deadline (docs/paging.md#exactly-once): nodemailer's socket timeout counts only
// silence, so a server that keeps talking without ever finishing would hold a page, and its row in
// `sending`, for as long as it liked. The whole exchange has a deadline of its own.

import type { AddressInfo } from 'node:net';
import { createServer, type Socket } from 'node:net';
import { startTestSmtpServer } from '@firebreak/testing';
import { afterAll, describe, expect, it } from 'vitest';
import { closeEmailTransports, sendEmail } from './email-sender';

const message = {
  to: 'on-call@example.test',
  subject: 'Page',
  text: 'Checkout is down',
  html: '<p>down</p>',
};
const sockets = new Set<Socket>();
const timers = new Set<NodeJS.Timeout>();
afterAll(() => {
  closeEmailTransports();
  for (const timer of timers) clearInterval(timer);
  for (const socket of sockets) socket.destroy();
});

/** Greets, then answers EHLO with an endless reply, one continuation line at a time: never silent. */
async function trickleServer(): Promise<{ url: string; close: () => void }> {
  const server = createServer((socket) => {
    sockets.add(socket);
    socket.write('220 trickle.example.test ESMTP\r\n');
    socket.once('data', () => {
      const timer = setInterval(() => socket.write('250-still thinking\r\n'), 50);
      timers.add(timer);
      socket.on('close', () => clearInterval(timer));
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return { url: `smtp://127.0.0.1:${port}`, close: () => server.close() };
}

describe('sendEmail', () => {
  it('gives up at its deadline on a server that never finishes, as a try to retry', async () => {
    const server = await trickleServer();
    try {
      const outcome = await sendEmail({ smtpUrl: server.url, from: 'pager@example.test' }, message, 500);
      expect(outcome).toEqual({ ok: false, retryable: true, error: 'smtp timed out after 0.5 s' });
    } finally {
      server.close();
    }
  });

  it('sends well within the deadline to a server that answers', async () => {
    const smtp = await startTestSmtpServer();
    try {
      const outcome = await sendEmail({ smtpUrl: smtp.url, from: 'pager@example.test' }, message);
      expect(outcome).toMatchObject({ ok: true });
      expect(smtp.messages.map((m) => m.subject)).toEqual(['Page']);
    } finally {
      closeEmailTransports(); // the pooled connection would hold the server's close
      await smtp.close();
    }
  });
});
