import type { AppEnv } from '@firebreak/http';
import { changeOriginOf, type Operations, principalOf } from '@firebreak/http';
import { type NotificationMethod, notificationMethods } from '@firebreak/schema';
import {
  addContactMethod,
  type ConfiguredMethods,
  getNotificationRules,
  listContactMethods,
  removeContactMethod,
  resolvePagingOwner,
  sendVerificationCode,
  setNotificationRules,
  telegramBot,
  testContactMethod,
  verifyContactMethod,
} from '@firebreak/services';
import type { Context } from 'hono';
import type { ApiDeps } from '../deps';
import { pagingOperations as op } from '../operations/paging';
import { noTelegramEnv } from './telegram';

/**
 * Personal paging's API (docs/api.md#personal-paging): each person's contact methods and notification
 * rules. Every route names its owner (`me` or an id); the service decides who may touch whose.
 */
export function addPagingRoutes(ops: Operations, deps: ApiDeps): void {
  const { ctx } = deps;
  const fixed = configuredMethods(deps.config.paging);
  // Telegram is on while a bot token is in effect, which Settings can change at any time: asked per request.
  const telegramEnv = deps.config.telegram ?? noTelegramEnv;
  const configuredNow = async (): Promise<ConfiguredMethods> =>
    (await telegramBot(ctx, telegramEnv))
      ? new Set(notificationMethods.filter((m) => fixed.has(m) || m === 'telegram'))
      : fixed;
  const owner = (c: Context<AppEnv>, id: string) => resolvePagingOwner(ctx, principalOf(c), id);

  ops.add(op.methods, async (c) =>
    c.json({
      methods: [...(await configuredNow())],
      vapid_public_key: deps.config.paging.push?.publicKey ?? null,
    }),
  );
  ops.add(op.getRules, async (c, { params }) =>
    c.json(await getNotificationRules(ctx, await owner(c, params.id))),
  );
  ops.add(op.putRules, async (c, { params, body }) =>
    c.json(
      await setNotificationRules(
        ctx,
        await owner(c, params.id),
        body.rules,
        await configuredNow(),
        changeOriginOf(c),
      ),
    ),
  );
  ops.add(op.listContacts, async (c, { params }) =>
    c.json({ contact_methods: await listContactMethods(ctx, await owner(c, params.id)) }),
  );
  ops.add(op.addContact, async (c, { params, body }) => {
    const who = await owner(c, params.id);
    return c.json(
      await addContactMethod(ctx, principalOf(c), who, body, await configuredNow(), changeOriginOf(c)),
      201,
    );
  });
  ops.add(op.removeContact, async (c, { params }) => {
    await removeContactMethod(ctx, await owner(c, params.id), params.cm_id, changeOriginOf(c));
    return c.body(null, 204);
  });
  ops.add(op.sendCode, async (c, { params }) =>
    c.json(
      await sendVerificationCode(ctx, await owner(c, params.id), params.cm_id, await configuredNow()),
      202,
    ),
  );
  ops.add(op.verify, async (c, { params, body }) =>
    c.json(
      await verifyContactMethod(ctx, await owner(c, params.id), params.cm_id, body.code, changeOriginOf(c)),
    ),
  );
  ops.add(op.test, async (c, { params }) =>
    c.json(await testContactMethod(ctx, await owner(c, params.id), params.cm_id, await configuredNow()), 202),
  );
}

/** Chat always (each person needs a chat id); the others when their settings are present. */
function configuredMethods(paging: ApiDeps['config']['paging']): ConfiguredMethods {
  const on: Record<NotificationMethod, boolean> = {
    chat: true,
    email: paging.email !== undefined,
    sms: paging.twilio !== undefined,
    voice: paging.twilio !== undefined,
    push: paging.push !== undefined,
    // Decided per request (a token may be saved in Settings): see `configuredNow`.
    telegram: false,
  };
  return new Set(notificationMethods.filter((method) => on[method]));
}
