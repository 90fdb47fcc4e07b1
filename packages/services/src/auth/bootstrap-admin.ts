import { settingKeys, settings, users } from '@firebreak/db';
import type { ServiceContext } from '../context';
import { generatePassword, hashPassword } from './passwords';

export interface BootstrappedAdmin {
  email: string;
  /**
   * Only when generated here: handed over once at start-up (a 0600 file in the split deployment, the
   * terminal of `pnpm start`) and never stored in the database in clear.
   */
  generatedPassword: string | undefined;
}

const DEFAULT_ADMIN_EMAIL = 'admin@localhost';

/**
 * On the first start (no users at all) creates the first admin: from BOOTSTRAP_ADMIN_* when set,
 * otherwise `admin@localhost` with a random password (docs/api.md#authentication). No open sign-up exists, so
 * this is the only way into a new installation. Returns undefined when users already exist.
 *
 * `deliver` hands the login over before the admin is committed: when it fails (an unwritable
 * DATA_DIR), no admin is created and the next start tries again, rather than leaving an admin whose
 * generated password nobody ever saw.
 */
export async function bootstrapAdmin(
  ctx: ServiceContext,
  configured: { email: string; password: string } | undefined,
  deliver?: (admin: BootstrappedAdmin) => void | Promise<void>,
): Promise<BootstrappedAdmin | undefined> {
  const email = configured?.email ?? DEFAULT_ADMIN_EMAIL;
  const password = configured?.password ?? generatePassword();
  const passwordHash = await hashPassword(password);
  return ctx.sql.begin(async (tx) => {
    await users.lockFirstAdminCreation(tx);
    if ((await users.countUsers(tx)) > 0) return undefined;
    const created = await users.insertUser(tx, { email, name: 'Administrator', role: 'admin', passwordHash });
    // By id, with the user: the break-glass account is this admin, not whoever is oldest later on.
    await settings.putSetting(tx, settingKeys.breakGlassUserId, created.id);
    const admin = { email, generatedPassword: configured ? undefined : password };
    await deliver?.(admin);
    return admin;
  });
}
