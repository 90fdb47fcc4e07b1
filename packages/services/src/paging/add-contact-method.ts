import { contactMethods, pageDeliveries, type Queryable } from '@firebreak/db';
import { AppError, type ContactMethod, type CreateContactMethodInput } from '@firebreak/schema';
import { type ChangeOrigin, recordAudit } from '../audit';
import type { Principal } from '../auth/principal';
import type { ServiceContext } from '../context';
import type { PagingOwner } from './access';
import { type ConfiguredMethods, requireConfigured } from './configured';
import { presentContactMethod } from './present';

/**
 * `POST /api/v1/users/{id}/contact-methods`. E-mail, SMS and voice start unverified: pages go only to
 * verified ones, after `send-code` and `verify`. A push subscription counts as verified at once, and only
 * the person's own browser session may add one: the browser made it after the person allowed
 * notifications, for this server's VAPID key, and the push service delivers it to that browser only.
 * A code sent through it would appear in that same browser, proving nothing more
 * (docs/paging.md#verification).
 */
export async function addContactMethod(
  ctx: ServiceContext,
  principal: Principal,
  owner: PagingOwner,
  input: CreateContactMethodInput,
  configured: ConfiguredMethods,
  origin: ChangeOrigin,
): Promise<ContactMethod> {
  requireConfigured(configured, input.type);
  const push = input.type === 'push';
  if (push && (principal.kind !== 'session' || principal.user?.id !== owner.id)) {
    throw new AppError(
      'forbidden',
      'A push subscription is added by the person’s own browser, signed in as them.',
    );
  }
  const now = ctx.now();
  const row = await ctx.sql.begin(async (tx) => {
    if (push) await takeOverSubscription(tx, ctx, owner, input.subscription.endpoint, origin);
    const inserted = await contactMethods.insertContactMethod(tx, {
      userId: owner.id,
      type: input.type,
      address: push ? input.subscription.endpoint : input.address,
      pushKeys: push ? input.subscription.keys : null,
      label: input.label ?? null,
      verifiedAt: push ? now : null,
      at: now,
    });
    if (!inserted) throw new AppError('conflict', `This ${input.type} contact method exists already.`);
    await recordAudit(tx, ctx, {
      origin,
      entity: 'contact_method',
      entityId: inserted.id,
      action: 'create',
      before: null,
      after: { user_id: owner.id, ...presentContactMethod(inserted) },
    });
    return inserted;
  });
  ctx.logger.info({ contact_method_id: row.id, user_id: owner.id, type: row.type }, 'contact method added');
  return presentContactMethod(row);
}

/**
 * A push subscription belongs to one browser, and whoever signs in there now is the one it reaches. On
 * a shared computer the person before may still have it as a contact method: it is removed from them
 * (audited, their unsent pages to it skipped, as on a delete), or they would be paged on someone else's
 * screen, and that person would see their incidents.
 */
async function takeOverSubscription(
  tx: Queryable,
  ctx: ServiceContext,
  owner: PagingOwner,
  endpoint: string,
  origin: ChangeOrigin,
): Promise<void> {
  for (const previous of await contactMethods.lockPushMethodsAt(tx, endpoint)) {
    if (previous.user_id === owner.id) continue;
    await pageDeliveries.skipPendingOfContactMethod(tx, previous.id, 'contact method removed');
    await contactMethods.deleteContactMethod(tx, previous.id);
    await recordAudit(tx, ctx, {
      origin,
      entity: 'contact_method',
      entityId: previous.id,
      action: 'delete',
      before: { user_id: previous.user_id, ...presentContactMethod(previous) },
      after: null,
    });
    ctx.logger.info(
      { contact_method_id: previous.id, user_id: previous.user_id, to_user_id: owner.id },
      'push subscription moved to another person',
    );
  }
}
