import { outbox } from '@firebreak/db';
import { AppError } from '@firebreak/schema';
import type { ServiceContext } from '../context';
import type { PagingOwner } from './access';
import { type ConfiguredMethods, requireConfigured } from './configured';
import { ownedContactMethod } from './remove-contact-method';

/** `POST …/contact-methods/{cm_id}/test`: a test notification through a verified method, by the worker. */
export async function testContactMethod(
  ctx: ServiceContext,
  owner: PagingOwner,
  contactMethodId: string,
  configured: ConfiguredMethods,
): Promise<{ status: 'queued' }> {
  await ctx.sql.begin(async (tx) => {
    const row = await ownedContactMethod(tx, owner, contactMethodId);
    requireConfigured(configured, row.type);
    if (!row.verified_at || row.disabled_at) {
      throw new AppError('conflict', 'Verify this contact method first.');
    }
    await outbox.insertOutboxRows(tx, [{ name: 'notify.test', payload: { contact_method_id: row.id } }]);
  });
  return { status: 'queued' };
}
