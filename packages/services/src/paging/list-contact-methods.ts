import { contactMethods } from '@firebreak/db';
import type { ContactMethod } from '@firebreak/schema';
import type { ServiceContext } from '../context';
import type { PagingOwner } from './access';
import { presentContactMethod } from './present';

/** `GET /api/v1/users/{id}/contact-methods`. */
export async function listContactMethods(ctx: ServiceContext, owner: PagingOwner): Promise<ContactMethod[]> {
  return (await contactMethods.listContactMethods(ctx.sql, owner.id)).map(presentContactMethod);
}
