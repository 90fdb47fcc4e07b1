import type { SettingsView } from '@firebreak/schema';
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { ErrorMessage } from '../../components/ErrorMessage';
import { api } from '../../lib/api';

function authTestText(chat: SettingsView['chat']): string {
  if (!chat.auth_test) return 'not tested yet';
  return chat.auth_test.ok
    ? `connected to ${chat.auth_test.team} as ${chat.auth_test.user}`
    : `failing: ${chat.auth_test.error}`;
}

export function ChatSection({ settings, admin }: { settings: SettingsView; admin: boolean }) {
  const queryClient = useQueryClient();
  const test = useMutation({
    mutationFn: api.testChat,
    onSuccess: (chat) =>
      queryClient.setQueryData<SettingsView>(['settings'], (view) => (view ? { ...view, chat } : view)),
  });
  const { chat } = settings;
  return (
    <section className="card" aria-labelledby="chat-heading">
      <h2 id="chat-heading">Chat</h2>
      {chat.configured ? (
        <dl className="facts">
          <dt>Bot token</dt>
          <dd>set</dd>
          <dt>Signing secret</dt>
          <dd>{chat.signing_secret_set ? 'set' : 'not set — inbound commands are refused'}</dd>
          <dt>Connection</dt>
          <dd data-testid="chat-state">{authTestText(chat)}</dd>
        </dl>
      ) : (
        <p className="subtle small">
          Off. Set CHAT_BOT_TOKEN and CHAT_SIGNING_SECRET to open a channel per incident.
        </p>
      )}
      {admin && chat.configured ? (
        <p>
          <button type="button" onClick={() => test.mutate()} disabled={test.isPending}>
            {test.isPending ? 'Testing…' : 'Test connection'}
          </button>
        </p>
      ) : null}
      <ErrorMessage error={test.error} prefix="The test did not run" />
      <h3>Microsoft Teams</h3>
      {settings.teams.configured ? (
        <>
          <dl className="facts">
            <dt>Team</dt>
            <dd className="mono">{settings.teams.team_id}</dd>
          </dl>
          {admin ? (
            <p>
              <a className="button" href="/api/v1/settings/chat/teams-app-package" download>
                Download the Teams app package
              </a>{' '}
              <span className="hint">upload it in Teams (Apps → Manage your apps → Upload an app)</span>
            </p>
          ) : null}
        </>
      ) : (
        <p className="subtle small">
          Off. Set TEAMS_APP_ID, TEAMS_APP_PASSWORD, TEAMS_TENANT_ID and TEAMS_TEAM_ID to open a channel per
          incident in a team too.
        </p>
      )}
    </section>
  );
}
