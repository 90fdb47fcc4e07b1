import type { PagingConfig } from '@firebreak/config';
import {
  claimPage,
  PAGE_LINK_PATH,
  recordPageOutcome,
  type ServiceContext,
  signPageLink,
  type TelegramBot,
  type TelegramConfig,
  telegramBot,
} from '@firebreak/services';
import { type Senders, sendPage } from './dispatch';

export interface PageDeps {
  ctx: ServiceContext;
  paging: PagingConfig;
  /** `PUBLIC_URL`, without a trailing slash: every link in a page starts with it. */
  publicUrl: string;
  senders: Senders;
  /** Telegram's environment part; the token may also come from Settings, read at each send. */
  telegram: TelegramConfig;
}

/** The bot for a Telegram contact method, read now (a token saved in Settings needs no restart). */
export function botFor(deps: PageDeps, type: string): Promise<TelegramBot | undefined> {
  return type === 'telegram' ? telegramBot(deps.ctx, deps.telegram) : Promise.resolve(undefined);
}

/**
 * `notify.deliver` (docs/paging.md#timers): claims the page (committed as `sending` before anything is
 * sent), sends it, records the outcome. A page already sent, skipped, not yet due, or held by another
 * worker is left alone: the row's state, not the job, decides.
 */
export async function deliverPage(deps: PageDeps, deliveryId: string): Promise<void> {
  const { ctx, publicUrl } = deps;
  const page = await claimPage(ctx, deliveryId);
  if (!page) return;
  const token = await signPageLink(ctx, page.incident.id, page.user.id);
  const outcome = await botFor(deps, page.contact.type)
    .then((bot) =>
      sendPage(
        deps.paging,
        deps.senders,
        page.contact,
        {
          incident: page.incident,
          person: page.user.name,
          incidentUrl: `${publicUrl}/incidents/${page.incident.number}`,
          ackUrl: `${publicUrl}${PAGE_LINK_PATH}${token}`,
          ackCode: page.delivery.ack_code,
        },
        `${publicUrl}/api/v1/paging/twilio/voice/${token}`,
        bot,
      ),
    )
    // A settings read that failed (the database for a moment) or a sender that threw: a later try may
    // work, so the page is retried rather than failed as "not configured".
    .catch((error: Error) => ({
      ok: false as const,
      retryable: true,
      error: `sender failed: ${error.message}`,
    }));
  await recordPageOutcome(ctx, page, outcome);
}
