import { contactMethods, incidents, pageDeliveries, users } from '@firebreak/db';
import type { IncidentSeverity } from '@firebreak/schema';
import type { ServiceContext } from '../context';

/** Everything a sender needs for one page, read when it was claimed. */
export interface ClaimedPage {
  delivery: pageDeliveries.PageDeliveryRow;
  contact: contactMethods.ContactMethodRow;
  incident: { id: string; number: number; title: string; severity: IncidentSeverity };
  user: { id: string; name: string };
}

/**
 * Takes a due page for sending (`notify.deliver`): locks its row, re-reads the incident and, if it is
 * still triggered, marks the row `sending` and commits before anything is sent, so no other worker or
 * job can send it too. An incident acknowledged or resolved meanwhile stops the person's remaining rules
 * there: the row becomes `skipped`. Undefined when the row is not due, not pending, or another worker
 * holds it.
 */
export async function claimPage(ctx: ServiceContext, deliveryId: string): Promise<ClaimedPage | undefined> {
  const claimed = await ctx.sql.begin(async (tx) => {
    const now = ctx.now();
    const delivery = await pageDeliveries.lockDueDelivery(tx, deliveryId, now);
    if (!delivery) return undefined;
    const [incident, contact, user] = await Promise.all([
      incidents.findIncidentView(tx, { id: delivery.incident_id }),
      delivery.contact_method_id
        ? contactMethods.findContactMethod(tx, delivery.contact_method_id)
        : undefined,
      users.findUserById(tx, delivery.user_id),
    ]);
    const reason =
      incident?.status !== 'triggered'
        ? `incident ${incident?.status ?? 'gone'}`
        : !contact
          ? 'contact method removed'
          : !contact.verified_at || contact.disabled_at
            ? 'contact method no longer usable'
            : !user?.active
              ? 'user deactivated'
              : null;
    if (reason || !incident || !contact || !user) {
      await pageDeliveries.markSkipped(tx, delivery.id, reason ?? 'gone');
      return { skipped: { delivery, reason: reason ?? 'gone' } };
    }
    await pageDeliveries.markSending(tx, delivery.id, now);
    return {
      skipped: undefined,
      page: {
        delivery: { ...delivery, status: 'sending' as const, attempts: delivery.attempts + 1 },
        contact,
        incident: {
          id: incident.id,
          number: incident.number,
          title: incident.title,
          severity: incident.severity,
        },
        user: { id: user.id, name: user.name },
      },
    };
  });
  if (claimed?.skipped) {
    const { delivery, reason } = claimed.skipped;
    ctx.logger.info(
      { delivery_id: delivery.id, incident_id: delivery.incident_id, user_id: delivery.user_id, reason },
      'page skipped',
    );
    return undefined;
  }
  return claimed?.page;
}
