import type { PagingConfig } from '@firebreak/config';
import {
  claimPage,
  PAGE_LINK_PATH,
  recordPageOutcome,
  type ServiceContext,
  signPageLink,
} from '@firebreak/services';
import { type Senders, sendPage } from './dispatch';

export interface PageDeps {
  ctx: ServiceContext;
  paging: PagingConfig;
  /** `PUBLIC_URL`, without a trailing slash: every link in a page starts with it. */
  publicUrl: string;
  senders: Senders;
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
  const outcome = await sendPage(
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
  ).catch((error: Error) => ({
    ok: false as const,
    retryable: true,
    error: `sender failed: ${error.message}`,
  }));
  await recordPageOutcome(ctx, page, outcome);
}
