import { AppError } from '@firebreak/schema';

/** The 409 messages for the users table's unique indexes. */
export function userConflicts(input: {
  email?: string;
  slack_user_id?: string | null;
  teams_user_id?: string | null;
}): Record<string, string> {
  return {
    users_email_key: `A user with the e-mail ${input.email ?? ''} already exists.`,
    users_slack_user_id_key: `Another user already has the slack_user_id ${input.slack_user_id ?? ''}.`,
    users_teams_user_id_key: `Another user already has the teams_user_id ${input.teams_user_id ?? ''}.`,
  };
}

/** Installations must keep someone who can manage them (no sign-up exists to get back in). */
export function lastAdmin(): AppError {
  return new AppError('conflict', 'This is the last active admin; make another user admin first.');
}
