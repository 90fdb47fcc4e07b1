import { escalationPolicies, integrations, type Queryable, schedules, userAdmin } from '@firebreak/db';
import type { ExistingRecords } from '@firebreak/domain';

export interface ExistingState extends ExistingRecords {
  /** Lowercased e-mail → id, so references to existing users link to them. */
  userIds: Map<string, string>;
}

/**
 * What the import's conflict rules compare against, read with the same queries the users, schedules
 * and policies API uses. Whole tables: an installation has hundreds of these, not millions, and the
 * plan needs most of them anyway.
 */
export async function readExisting(sql: Queryable): Promise<ExistingState> {
  const users = await userAdmin.listUsers(sql);
  return {
    users: users.map(({ email, name, slack_user_id }) => ({
      email: email.toLowerCase(),
      name,
      slack_user_id,
    })),
    userIds: new Map(users.map((user) => [user.email.toLowerCase(), user.id])),
    scheduleNames: (await schedules.findSchedules(sql)).map((schedule) => schedule.name),
    policyNames: (await escalationPolicies.findPolicies(sql)).map((policy) => policy.name),
    integrationKeys: (await integrations.listIntegrations(sql)).map((integration) => integration.key),
  };
}
