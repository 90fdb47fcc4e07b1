import { webhookIntegrations } from '@firebreak/domain/browser';
import type { SettingsView } from '@firebreak/schema';
import { Link } from 'react-router';
import { ErrorMessage } from '../../components/ErrorMessage';
import { useFixedPathsToggle } from './use-fixed-paths';

/**
 * While a fixed webhook path has no secret, anyone who can reach the server can open incidents and
 * page people through it. The notice names each open path and the two ways to close it; it stays
 * until `open_intake` is empty, because the risk does not go away by being dismissed.
 */
export function OpenIntakeNotice({
  settings,
  admin,
  headingLevel = 2,
}: {
  settings: SettingsView;
  admin: boolean;
  /** 3 inside a section that has its own h2, so the outline stays in order. */
  headingLevel?: 2 | 3;
}) {
  const { toggle, turnOff } = useFixedPathsToggle();
  if (settings.open_intake.length === 0) return null;
  const Heading = headingLevel === 3 ? 'h3' : 'h2';
  return (
    <section className="alert-box alert-warn" aria-labelledby="open-intake-heading" data-testid="open-intake">
      <Heading id="open-intake-heading">Open intake: anyone can send alerts to these paths</Heading>
      <ul>
        {settings.open_intake.map((open) => (
          <li key={open.path}>
            <code>{open.path}</code> has no secret.{' '}
            {open.settings_slug === webhookIntegrations.generic.settingsSlug ? (
              <>
                Set its signing secret in{' '}
                <Link to="/settings#generic-webhook-heading">Settings → Integrations</Link>.
              </>
            ) : (
              <>
                Set its secret with <code>PUT /api/v1/settings/integrations/{open.settings_slug}</code>.
              </>
            )}
          </li>
        ))}
      </ul>
      <p style={{ marginBottom: 0 }}>
        To close them: set each path's secret (Settings → Integrations), or turn the fixed paths off and have
        every sender post to its integration's keyed URL instead.
      </p>
      {admin ? (
        <p className="actions" style={{ marginBottom: 0 }}>
          <button type="button" onClick={turnOff} disabled={toggle.isPending}>
            Turn fixed paths off
          </button>
        </p>
      ) : null}
      <ErrorMessage error={toggle.error} prefix="The fixed paths were not turned off" />
    </section>
  );
}
