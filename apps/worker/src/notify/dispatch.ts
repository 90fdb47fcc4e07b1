import type { PagingConfig } from '@firebreak/config';
import type { ClaimedPage, TelegramBot } from '@firebreak/services';
import { type EmailMessage, sendEmail } from './email-sender';
import {
  codeEmail,
  codeSms,
  type PageContent,
  pageEmail,
  pagePush,
  pageSms,
  testEmail,
  testSms,
} from './messages';
import type { SendOutcome } from './outcome';
import { type PushPayload, sendPush } from './push-sender';
import { codeTelegram, pageTelegram, sendTelegram, testTelegram } from './telegram-sender';
import { placeCall, sendSms } from './twilio-sender';

type Contact = Pick<ClaimedPage['contact'], 'type' | 'address' | 'push_keys'>;

/** The senders, replaceable in tests; each never throws for a provider's answer. */
export interface Senders {
  email(cfg: NonNullable<PagingConfig['email']>, message: EmailMessage): Promise<SendOutcome>;
  sms(cfg: NonNullable<PagingConfig['twilio']>, to: string, body: string): Promise<SendOutcome>;
  call(cfg: NonNullable<PagingConfig['twilio']>, to: string, twimlUrl: string): Promise<SendOutcome>;
  push(
    cfg: NonNullable<PagingConfig['push']>,
    subscription: { endpoint: string; keys: { p256dh: string; auth: string } },
    payload: PushPayload,
  ): Promise<SendOutcome>;
  /** Optional so that a test giving its own senders need not name it; the Bot API when absent. */
  telegram?(bot: TelegramBot, chatId: string, html: string): Promise<SendOutcome>;
}

export const realSenders: Senders = {
  email: sendEmail,
  sms: sendSms,
  call: placeCall,
  push: sendPush,
  telegram: sendTelegram,
};

/** A Telegram message, when a bot token is in effect (env or Settings, read by the caller). */
function viaTelegram(senders: Senders, bot: TelegramBot | undefined, chatId: string, html: string) {
  if (!bot) return Promise.resolve(notConfigured('telegram'));
  return (senders.telegram ?? sendTelegram)(bot, chatId, html);
}

const notConfigured = (what: string): SendOutcome => ({
  ok: false,
  retryable: false,
  error: `${what} is not configured on this server`,
});

/**
 * Sends one page through its contact method (docs/paging.md#methods). A method whose settings were
 * removed since the rule was made fails the page with that reason rather than waiting forever.
 */
export function sendPage(
  paging: PagingConfig,
  senders: Senders,
  contact: Contact,
  content: PageContent,
  voiceUrl: string,
  telegram?: TelegramBot,
): Promise<SendOutcome> {
  switch (contact.type) {
    case 'email':
      return paging.email
        ? senders.email(paging.email, pageEmail(contact.address, content))
        : Promise.resolve(notConfigured('email'));
    case 'sms':
      return paging.twilio
        ? senders.sms(paging.twilio, contact.address, pageSms(content))
        : Promise.resolve(notConfigured('twilio'));
    case 'voice':
      return paging.twilio
        ? senders.call(paging.twilio, contact.address, voiceUrl)
        : Promise.resolve(notConfigured('twilio'));
    case 'push': {
      if (!paging.push || !contact.push_keys) return Promise.resolve(notConfigured('push'));
      const payload: PushPayload = pagePush(content);
      return senders.push(paging.push, { endpoint: contact.address, keys: contact.push_keys }, payload);
    }
    case 'telegram':
      return viaTelegram(senders, telegram, contact.address, pageTelegram(content));
  }
}

/**
 * A verification code, or a test message. Voice numbers get theirs by text message: a call reading a
 * code needs a script route of its own, and every mobile number takes texts (docs/paging.md#verification).
 */
export function sendNotice(
  paging: PagingConfig,
  senders: Senders,
  contact: Contact,
  notice: { kind: 'code'; code: string } | { kind: 'test'; url: string },
  telegram?: TelegramBot,
): Promise<SendOutcome> {
  const text = notice.kind === 'code' ? codeSms(notice.code) : testSms;
  switch (contact.type) {
    case 'email': {
      if (!paging.email) return Promise.resolve(notConfigured('email'));
      const message =
        notice.kind === 'code' ? codeEmail(contact.address, notice.code) : testEmail(contact.address);
      return senders.email(paging.email, message);
    }
    case 'sms':
    case 'voice':
      return paging.twilio
        ? senders.sms(paging.twilio, contact.address, text)
        : Promise.resolve(notConfigured('twilio'));
    case 'push':
      if (!paging.push || !contact.push_keys) return Promise.resolve(notConfigured('push'));
      return senders.push(
        paging.push,
        { endpoint: contact.address, keys: contact.push_keys },
        {
          title: 'Firebreak test notification',
          body: testSms,
          url: notice.kind === 'test' ? notice.url : '/',
          ack_url: '',
          tag: 'firebreak-test',
        },
      );
    case 'telegram':
      return viaTelegram(
        senders,
        telegram,
        contact.address,
        notice.kind === 'code' ? codeTelegram(notice.code) : testTelegram,
      );
  }
}
