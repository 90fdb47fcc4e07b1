import { useQuery } from '@tanstack/react-query';
import { ErrorMessage } from '../../components/ErrorMessage';
import { api } from '../../lib/api';
import { canWrite, useMe } from '../../lib/session';
import { AiSection } from './AiSection';
import { ApiKeysSection } from './ApiKeysSection';
import { AuditLogLink } from './AuditLogLink';
import { ChatSection } from './ChatSection';
import { ChatUsersSection } from './ChatUsersSection';
import { DefaultPolicySection } from './DefaultPolicySection';
import { FixedPathsSection } from './FixedPathsSection';
import { FollowupSection } from './FollowupSection';
import { OutgoingWebhooksLink } from './OutgoingWebhooksLink';
import { StormSection } from './StormSection';
import { TelegramSection } from './TelegramSection';
import { WebhookSecretSection } from './WebhookSecretSection';

export function SettingsPage() {
  const me = useMe();
  const admin = canWrite(me.data, 'admin');
  const settings = useQuery({ queryKey: ['settings'], queryFn: api.settings });
  return (
    <>
      <div className="page-head">
        <div>
          <h1>Settings</h1>
          {!admin ? <p className="subtle small">Only admins change settings; you can read them.</p> : null}
        </div>
      </div>
      <ErrorMessage error={settings.error} prefix="Could not load settings" />
      {settings.data ? (
        <div className="stack">
          <FixedPathsSection settings={settings.data} admin={admin} />
          <WebhookSecretSection settings={settings.data} admin={admin} />
          <div className="grid-2">
            <ChatSection settings={settings.data} admin={admin} />
            <AiSection settings={settings.data} />
          </div>
          {admin ? <TelegramSection /> : null}
          <ChatUsersSection settings={settings.data} admin={admin} />
          <DefaultPolicySection settings={settings.data} admin={admin} />
          <StormSection settings={settings.data} admin={admin} />
          <FollowupSection settings={settings.data} admin={admin} />
          {admin ? <OutgoingWebhooksLink /> : null}
          {admin ? <AuditLogLink /> : null}
          {admin ? <ApiKeysSection /> : null}
        </div>
      ) : null}
    </>
  );
}
