import { Link } from 'react-router';

/** Outgoing webhooks have a page of their own (a list, an editor, delivery logs); Settings leads there. */
export function OutgoingWebhooksLink() {
  return (
    <section className="card" aria-labelledby="outgoing-webhooks-heading">
      <h2 id="outgoing-webhooks-heading">Outgoing webhooks</h2>
      <p style={{ margin: 0 }}>
        URLs that receive a POST when an incident opens, changes or is resolved:{' '}
        <Link to="/outgoing-webhooks">manage outgoing webhooks and read their deliveries</Link>.
      </p>
    </section>
  );
}
