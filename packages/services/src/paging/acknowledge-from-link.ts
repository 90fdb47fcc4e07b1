import type { ServiceContext } from '../context';
import { acknowledgeAs, type PageAckResult } from './acknowledge-as';
import { readPageLink } from './read-page-link';

/**
 * The POST of an acknowledge link (the page's button, the push notification's action, the voice call's
 * key press): acknowledges as the person the link was made for. A token that is not genuine or has
 * expired changes nothing (`invalid`).
 */
export async function acknowledgeFromPageLink(
  ctx: ServiceContext,
  token: string,
  via: 'link' | 'voice' | 'push',
): Promise<PageAckResult> {
  const link = await readPageLink(ctx, token);
  if (!link) return { outcome: 'invalid' };
  return acknowledgeAs(ctx, link.user, link.incident, via);
}
