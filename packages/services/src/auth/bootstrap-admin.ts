import { users } from '@firebreak/db';
import type { ServiceContext } from '../context';
import { generatePassword, hashPassword } from './passwords';

export interface BootstrappedAdmin {
  email: string;
  /** Only when generated here: printed once at start-up and never stored in clear. */
  generatedPassword: string | undefined;
}

const DEFAULT_ADMIN_EMAIL = 'admin@localhost';

/**
 * On the first start (no users at all) creates the first admin: from BOOTSTRAP_ADMIN_* when set,
 * otherwise `admin@localhost` with a random password (docs/api.md#authentication). No open sign-up exists, so
 * this is the only way into a new installation. Returns undefined when users already exist.
 */
export async function bootstrapAdmin(
  ctx: ServiceContext,
  configured: { email: string; password: string } | undefined,
): Promise<BootstrappedAdmin | undefined> {
  const email = configured?.email ?? DEFAULT_ADMIN_EMAIL;
  const password = configured?.password ?? generatePassword();
  const passwordHash = await hashPassword(password);
  return ctx.sql.begin(async (tx) => {
    await users.lockFirstAdminCreation(tx);
    if ((await users.countUsers(tx)) > 0) return undefined;
    await users.insertUser(tx, { email, name: 'Administrator', role: 'admin', passwordHash });
    return { email, generatedPassword: configured ? undefined : password };
  });
}
