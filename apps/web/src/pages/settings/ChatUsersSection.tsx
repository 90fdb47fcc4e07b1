import type { SettingsView } from '@firebreak/schema';
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { ErrorMessage } from '../../components/ErrorMessage';
import { api, type ChatUserSettings } from '../../lib/api';

/**
 * Who may act from chat (docs/integrations/slack.md#users): the role of users created from chat, and
 * whether chat users Firebreak cannot match may act under their chat name (off: they are refused).
 */
export function ChatUsersSection({ settings, admin }: { settings: SettingsView; admin: boolean }) {
  const queryClient = useQueryClient();
  const save = useMutation({
    mutationFn: (changes: ChatUserSettings) => api.setChatUserSettings(changes),
    onSuccess: (view) => queryClient.setQueryData(['settings'], view),
  });
  const disabled = !admin || save.isPending;
  return (
    <section className="card stack" aria-labelledby="chat-users-heading">
      <h2 id="chat-users-heading">Chat users</h2>
      <label style={{ maxWidth: '28rem' }}>
        Role of users created from chat
        <select
          value={settings.chat_user_default_role}
          disabled={disabled}
          onChange={(e) => save.mutate({ chat_user_default_role: e.target.value as 'viewer' | 'member' })}
        >
          <option value="member">Member — can acknowledge, resolve and add notes</option>
          <option value="viewer">Viewer — can read only; promote people by hand</option>
        </select>
      </label>
      <label>
        <input
          type="checkbox"
          checked={settings.chat_allow_unmatched_users}
          disabled={disabled}
          onChange={(e) => save.mutate({ chat_allow_unmatched_users: e.target.checked })}
        />{' '}
        Let chat users Firebreak cannot match to a user (chat API down, no e-mail) act under their chat name
      </label>
      <ErrorMessage error={save.error} prefix="The chat user settings were not changed" />
    </section>
  );
}
