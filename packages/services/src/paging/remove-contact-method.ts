import { contactMethods, pageDeliveries } from '@firebreak/db';
import { AppError } from '@firebreak/schema';
import { type ChangeOrigin, recordAudit } from '../audit';
import type { ServiceContext } from '../context';
import type { PagingOwner } from './access';
import { presentContactMethod } from './present';

/**
 * `DELETE /api/v1/users/{id}/contact-methods/{cm_id}`. Rules that named it go with it; its page rows
 * stay as the incident's history without the address (docs/paging.md#history), and those not yet sent
 * are skipped, never sent. The person's other rules still apply.
 */
export async function removeContactMethod(
  ctx: ServiceContext,
  owner: PagingOwner,
  contactMethodId: string,
  origin: ChangeOrigin,
): Promise<void> {
  await ctx.sql.begin(async (tx) => {
    const row = await ownedContactMethod(tx, owner, contactMethodId, true);
    // A claim in progress holds its row's lock, so a page already being sent finishes; the rest wait here.
    await pageDeliveries.skipPendingOfContactMethod(tx, row.id, 'contact method removed');
    await contactMethods.deleteContactMethod(tx, row.id);
    await recordAudit(tx, ctx, {
      origin,
      entity: 'contact_method',
      entityId: row.id,
      action: 'delete',
      before: { user_id: owner.id, ...presentContactMethod(row) },
      after: null,
    });
  });
}

/** The person's contact method, locked when asked; 404 for anyone else's, as for an unknown id. */
export async function ownedContactMethod(
  sql: Parameters<typeof contactMethods.findContactMethod>[0],
  owner: PagingOwner,
  id: string,
  lock = false,
): Promise<contactMethods.ContactMethodRow> {
  const row = lock
    ? await contactMethods.lockContactMethod(sql, id)
    : await contactMethods.findContactMethod(sql, id);
  if (!row || row.user_id !== owner.id) throw new AppError('not_found', `No contact method "${id}".`);
  return row;
}
