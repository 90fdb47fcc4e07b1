/**
 * The database's refusals that mean someone created a record with an imported name or key between the
 * import's read and its write (constraint name → message), for `refusingConflicts`. Shared by every
 * importer, since they write the same tables.
 */
export const changedMeanwhile = {
  users_email_key: 'A user with an imported e-mail was created while the import ran; run it again.',
  users_slack_user_id_key:
    'A user with an imported slack_user_id was created while the import ran; run it again.',
  schedules_name_key: 'A schedule with an imported name was created while the import ran; run it again.',
  escalation_policies_name_key:
    'An escalation policy with an imported name was created while the import ran; run it again.',
  integrations_key_key: 'An integration with an imported key was created while the import ran; run it again.',
};
