import { contactMethods, incidents, pageDeliveries, users } from '@firebreak/db';
import type { ServiceContext } from '../context';
import { acknowledgeAs } from './acknowledge-as';

const ACK = /^\s*ack\s*[#:]?\s*(\d{1,8})\s*$/i;

/**
 * An SMS reply (docs/paging.md#sms): `ACK <code>`, any case, from a number that is a verified sms
 * contact method of a person still active (a deactivated person acknowledges nothing, as at login). The code names one of that person's open pages; the incident is acknowledged as them.
 * Always a reply to text back, never an error: the sender is a phone.
 */
export async function acknowledgeFromSms(
  ctx: ServiceContext,
  message: { from: string; body: string },
): Promise<{ reply: string }> {
  const match = ACK.exec(message.body);
  if (!match) return { reply: 'Firebreak: reply ACK followed by the code in the page, e.g. ACK 1234.' };
  const code = match[1]!;
  const owners = [
    ...new Set(
      (await contactMethods.findVerifiedSmsByNumber(ctx.sql, message.from.trim())).map((m) => m.user_id),
    ),
  ];
  if (owners.length === 0) {
    ctx.logger.info({ code }, 'sms acknowledge from an unknown number');
    return { reply: 'Firebreak: this number is not a verified contact of any user.' };
  }
  const open = await pageDeliveries.findOpenDeliveryByCode(ctx.sql, owners, code);
  if (!open) return { reply: `Firebreak: no open page with code ${code}. It may be acknowledged already.` };
  const [incident, person] = await Promise.all([
    incidents.findIncidentView(ctx.sql, { id: open.incident_id }),
    users.findUserById(ctx.sql, open.user_id),
  ]);
  if (!incident || !person?.active) return { reply: `Firebreak: no open page with code ${code}.` };
  const result = await acknowledgeAs(ctx, person, incident, 'sms');
  if (result.outcome === 'acknowledged') {
    return { reply: `Firebreak: #${incident.number} acknowledged. Thank you, ${person.name}.` };
  }
  if (result.outcome !== 'already') return { reply: `Firebreak: #${incident.number} is already taken.` };
  const by = result.by ? ` by ${result.by}` : '';
  return { reply: `Firebreak: #${incident.number} is already ${result.status}${by}.` };
}
