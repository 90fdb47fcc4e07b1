import { Link } from 'react-router';

export function NotFoundPage() {
  return (
    <div className="card">
      <h1>Page not found</h1>
      <p>
        Nothing lives at this address. <Link to="/incidents">Go to the incidents</Link>.
      </p>
    </div>
  );
}
