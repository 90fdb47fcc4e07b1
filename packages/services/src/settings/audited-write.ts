import { type Queryable, settings } from '@firebreak/db';
import { type ChangeOrigin, recordAudit } from '../audit';
import type { ServiceContext } from '../context';

/**
 * Runs `write` on settings rows and records, in the same transaction, the values of `keys` before and
 * after it (null: not set). The setting keys are the audit row's field names, so a secret's key
 * (`…signing_secret`, `…bearer_token`) is redacted like any secret field. `section` names the part of
 * Settings the request changed (`general`, `integrations`).
 */
export async function auditedSettingsWrite(
  tx: Queryable,
  ctx: Pick<ServiceContext, 'now'>,
  origin: ChangeOrigin,
  section: string,
  keys: readonly string[],
  write: () => Promise<void>,
): Promise<void> {
  const read = async () =>
    Object.fromEntries(
      await Promise.all(
        keys.map(async (key) => [key, (await settings.getSetting(tx, key)) ?? null] as const),
      ),
    );
  const before = await read();
  await write();
  await recordAudit(tx, ctx, {
    origin,
    entity: 'settings',
    entityId: section,
    action: 'update',
    before,
    after: await read(),
  });
}
