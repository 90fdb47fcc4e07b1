import { escalationPolicies, settingKeys, settings } from '@firebreak/db';
import { AppError, type UpdateSettingsInput } from '@firebreak/schema';
import { type ChangeOrigin, systemOrigin } from '../audit';
import type { ServiceContext } from '../context';
import { auditedSettingsWrite } from './audited-write';
import { forgetFixedWebhooksEnabled } from './fixed-webhooks';
import { followupSettingKeysIn, writeFollowupSettings } from './followup-settings';
import { statusPageSettingKeysIn, writeStatusPageSettings } from './status-page-settings';
import { stormSettingKeysIn, writeStormSettings } from './storm-settings';

/**
 * `PATCH /api/v1/settings` (docs/api.md#settings): the default escalation policy and
 * `fixed_webhooks_enabled`, all of what is given or nothing. Everything is checked before anything is
 * written, and the writes share one transaction: a failure between them must not leave half a change
 * (say, the fixed paths turned off while the new default policy, given in the same request, is not set).
 */
export async function updateSettings(
  ctx: ServiceContext,
  input: UpdateSettingsInput,
  origin: ChangeOrigin = systemOrigin,
): Promise<void> {
  const { default_escalation_policy_id: policyId, fixed_webhooks_enabled: fixedEnabled } = input;
  const { chat_user_default_role: chatRole, chat_allow_unmatched_users: chatUnmatched } = input;
  await ctx.sql.begin(async (tx) => {
    if (policyId && !(await escalationPolicies.findPolicy(tx, policyId))) {
      throw new AppError('validation_failed', 'The request is not valid.', [
        { path: 'default_escalation_policy_id', message: 'no escalation policy has this id' },
      ]);
    }
    const keys = [
      ...(policyId !== undefined ? [settingKeys.defaultEscalationPolicy] : []),
      ...(fixedEnabled !== undefined ? [settingKeys.fixedWebhooksEnabled] : []),
      ...(chatRole !== undefined ? [settingKeys.chatUserDefaultRole] : []),
      ...(chatUnmatched !== undefined ? [settingKeys.chatAllowUnmatchedUsers] : []),
      ...stormSettingKeysIn(input),
      ...followupSettingKeysIn(input),
      ...statusPageSettingKeysIn(input),
    ];
    if (keys.length === 0) return;
    await auditedSettingsWrite(tx, ctx, origin, 'general', keys, async () => {
      if (policyId === null) await settings.deleteSetting(tx, settingKeys.defaultEscalationPolicy);
      else if (policyId !== undefined)
        await settings.putSetting(tx, settingKeys.defaultEscalationPolicy, policyId);
      if (fixedEnabled !== undefined)
        await settings.putSetting(tx, settingKeys.fixedWebhooksEnabled, fixedEnabled);
      if (chatRole !== undefined) await settings.putSetting(tx, settingKeys.chatUserDefaultRole, chatRole);
      if (chatUnmatched !== undefined)
        await settings.putSetting(tx, settingKeys.chatAllowUnmatchedUsers, chatUnmatched);
      await writeStormSettings(tx, input);
      await writeFollowupSettings(tx, input);
      await writeStatusPageSettings(tx, input);
    });
  });
  if (policyId !== undefined) ctx.logger.info({ policy_id: policyId }, 'default escalation policy changed');
  if (chatRole !== undefined || chatUnmatched !== undefined)
    ctx.logger.info(
      { chat_user_default_role: chatRole, chat_allow_unmatched_users: chatUnmatched },
      'chat user settings changed',
    );
  const stormKeys = stormSettingKeysIn(input);
  if (stormKeys.length > 0) ctx.logger.info({ settings: stormKeys }, 'storm mode settings changed');
  const followupKeys = followupSettingKeysIn(input);
  if (followupKeys.length > 0)
    ctx.logger.info({ settings: followupKeys }, 'incident follow-up settings changed');
  if (fixedEnabled !== undefined) {
    forgetFixedWebhooksEnabled(ctx);
    ctx.logger.info({ fixed_webhooks_enabled: fixedEnabled }, 'fixed webhooks setting changed');
  }
}

/** Turns the fixed paths off (keyed intake keeps working) or on again. */
export function setFixedWebhooksEnabled(ctx: ServiceContext, enabled: boolean): Promise<void> {
  return updateSettings(ctx, { fixed_webhooks_enabled: enabled });
}
