import type { SettingsView } from '@firebreak/schema';
import { Link } from 'react-router';
import { ErrorMessage } from '../../components/ErrorMessage';
import { OpenIntakeNotice } from '../integrations/OpenIntakeNotice';
import { useFixedPathsToggle } from '../integrations/use-fixed-paths';

/** Settings → Integrations: whether the fixed webhook paths take alerts, beside the keyed URLs. */
export function FixedPathsSection({ settings, admin }: { settings: SettingsView; admin: boolean }) {
  const { toggle, turnOff, turnOn } = useFixedPathsToggle();
  const on = settings.fixed_webhooks_enabled;
  return (
    <section className="card stack" aria-labelledby="fixed-paths-heading">
      <div>
        <h2 id="fixed-paths-heading">Integrations → Fixed webhook paths</h2>
        <p style={{ margin: 0 }}>
          <code>/api/v1/webhooks/*</code>:{' '}
          <strong data-testid="fixed-paths-state">
            {on ? 'on — they accept alerts' : 'off — they answer 404; only keyed URLs take alerts'}
          </strong>
        </p>
        <p className="small subtle" style={{ marginBottom: 0 }}>
          Each <Link to="/integrations">integration</Link> has its own keyed URL, which needs no secret of its
          own.
        </p>
      </div>
      <OpenIntakeNotice settings={settings} admin={admin} headingLevel={3} />
      {/* While a path is open the notice above offers "Turn fixed paths off"; one button is enough. */}
      {admin && !(on && settings.open_intake.length > 0) ? (
        <p className="actions" style={{ margin: 0 }}>
          <button type="button" onClick={on ? turnOff : turnOn} disabled={toggle.isPending}>
            {on ? 'Turn fixed paths off' : 'Turn fixed paths on'}
          </button>
        </p>
      ) : null}
      <ErrorMessage error={toggle.error} prefix="The fixed paths were not changed" />
    </section>
  );
}
