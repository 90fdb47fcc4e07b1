import type { ChatProfileLookup } from '@firebreak/services';
import { TeamsApiError } from './api-error';
import type { MicrosoftApi } from './microsoft-api';

/** Teams waits 15 seconds for the bot's answer; the database work after the lookup needs the rest. */
const LOOKUP_BUDGET_MS = 3000;

/**
 * A Teams user's profile from Microsoft Graph (`GET /users/{id}`, permission `User.Read.All`): their
 * name and e-mail (`mail`, else the user principal name, which is an e-mail address in Entra) — what
 * matching a Teams user to a Firebreak user needs (docs/teams.md#people). Unknown → null.
 */
export function createTeamsProfileLookup(api: MicrosoftApi): ChatProfileLookup {
  return async (teamsUserId) => {
    let timer: NodeJS.Timeout | undefined;
    const timeout = new Promise<never>((_, reject) => {
      timer = setTimeout(
        () => reject(new Error(`Graph user lookup took over ${LOOKUP_BUDGET_MS} ms`)),
        LOOKUP_BUDGET_MS,
      );
    });
    try {
      const user = await Promise.race([
        api.graph<{ displayName?: string; mail?: string | null; userPrincipalName?: string }>(
          'GET',
          `/users/${encodeURIComponent(teamsUserId)}?$select=displayName,mail,userPrincipalName`,
        ),
        timeout,
      ]);
      const email = user?.mail || (user?.userPrincipalName?.includes('@') ? user.userPrincipalName : null);
      return { name: user?.displayName ?? '', email: email ?? null };
    } catch (error) {
      if (error instanceof TeamsApiError && error.status === 404) return null;
      throw error instanceof TeamsApiError ? new Error(`Graph users: ${error.code}`) : error;
    } finally {
      clearTimeout(timer);
    }
  };
}
