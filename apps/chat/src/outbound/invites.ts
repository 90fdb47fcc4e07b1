import { listOwedInvites, recordInvite } from '@firebreak/services';
import { withRejoin } from './channel-calls';
import { ChatCallError, isRefusal } from './errors';
import { reportChatFailure } from './failures';
import { type ChatJob, isLastTry } from './job';

/**
 * Invites everyone the channel owes an invite — the commander and the people paged — once each
 * (docs/chat.md#invites). One person per call: Slack refuses a whole list for one bad id. A refusal
 * about the person (`user_not_found`…) is recorded, so it is asked once; a refusal about the
 * installation or the channel, and an outage on the job's last try, leave the invite owed (the next
 * chat job of the incident asks again) and stop this round. Either is logged once per change of state
 * (`slack: invite failed: <code>`); no `chat_failed` entry, and the job that ran the invites does not
 * fail for them: an invite is a convenience, and the person's page (which has its own) is what matters.
 * An outage before the last try is retried with the job; a rate limit re-schedules it.
 */
export async function inviteOwedPeople(jc: ChatJob, channelId: string): Promise<void> {
  for (const slackUserId of await listOwedInvites(jc.session)) {
    let error: string | null = null;
    try {
      await withRejoin(jc, channelId, 'invite_member', (platform) => platform.invite(channelId, slackUserId));
    } catch (caught) {
      const failure = inviteFailure(jc, caught);
      if (failure.kind !== 'in_channel') reportChatFailure(jc, failure.error, { slack_user_id: slackUserId });
      // The next invite would fail the same way: the owed ones wait for a later job.
      if (failure.kind === 'try_later') return;
      if (failure.kind === 'about_the_person') error = failure.error.code;
    }
    await recordInvite(jc.session, { slackUserId, channelId, error });
  }
}

type InviteFailure =
  | { kind: 'in_channel' }
  | { kind: 'about_the_person'; error: ChatCallError }
  | { kind: 'try_later'; error: ChatCallError };

/**
 * What a failed invite means; thrown on when the job should handle it (a rate limit, an early outage).
 * `already_member` (Slack: `already_in_channel`, `cant_invite_self`) means the invite is done. A refusal
 * `about_the_person` (`user_not_found`…) gives the same answer when asked again, so it is recorded and
 * they are not asked again for this incident. Every other refusal (`missing_scope`, `restricted_action`,
 * `channel_not_found`, `invalid_auth`…) concerns the installation or the channel: recording it against
 * each person would keep them out for good once an admin fixes the app, so it is only logged and a
 * later job asks again.
 */
function inviteFailure(jc: ChatJob, caught: unknown): InviteFailure {
  if (caught instanceof ChatCallError && caught.problem.kind === 'transient' && isLastTry(jc.job)) {
    return { kind: 'try_later', error: caught };
  }
  if (!isRefusal(caught)) throw caught;
  if (caught.problem.reason === 'already_member') return { kind: 'in_channel' };
  if (caught.problem.reason === 'about_the_person') return { kind: 'about_the_person', error: caught };
  return { kind: 'try_later', error: caught };
}
