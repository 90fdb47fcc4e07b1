import { userAdmin, users } from '@firebreak/db';
import type { User } from '@firebreak/schema';
import { presentUser } from '../auth/present';
import type { ServiceContext } from '../context';
import { notFound } from './write-errors';

export async function listUsers(ctx: ServiceContext): Promise<User[]> {
  return (await userAdmin.listUsers(ctx.sql)).map(presentUser);
}

export async function getUser(ctx: ServiceContext, id: string): Promise<User> {
  const row = await users.findUserById(ctx.sql, id);
  if (!row) throw notFound('user', id);
  return presentUser(row);
}
